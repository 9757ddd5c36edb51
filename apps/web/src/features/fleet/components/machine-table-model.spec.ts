import { describe, expect, it } from '@jest/globals';
import type { FleetMachine } from '@wv/contracts';
import { filterMachines, NO_FILTERS, ownersOf, sortMachines } from './machine-table-model';

const machine = (espId: string, over: Partial<FleetMachine> = {}): FleetMachine => ({
  espId,
  location: null,
  coordinates: null,
  owner: null,
  online: false,
  lastSeen: null,
  today: { revenue: 0, litres: 0, sales: 0 },
  trend: [0, 0, 0, 0, 0, 0, 0],
  activeAlarms: 0,
  worstSeverity: null,
  ...over,
});

const ana = { id: 'u-ana', name: 'Ana Mushi' };
const ben = { id: 'u-ben', name: 'Ben Kato' };
const fleet = [
  machine('ESP-10', { location: 'Kariakoo', owner: ana, online: true, today: { revenue: 500, litres: 10, sales: 2 } }),
  machine('ESP-9', { location: 'Mwenge', owner: ben, activeAlarms: 1, worstSeverity: 'minor' }),
  machine('ESP-2', {
    location: 'Posta kariakoo',
    activeAlarms: 3,
    worstSeverity: 'major',
    trend: [1, 1, 1, 1, 1, 1, 1],
  }),
  machine('ESP-1', {
    owner: ana,
    online: true,
    activeAlarms: 1,
    worstSeverity: 'critical',
    today: { revenue: 500, litres: 9, sales: 1 },
  }),
];
const ids = (list: FleetMachine[]) => list.map((m) => m.espId);

describe('the machine table model', () => {
  it('searches the ESP ID and the location, whatever the case', () => {
    expect(ids(filterMachines(fleet, { ...NO_FILTERS, search: 'KARIAKOO' }))).toEqual(['ESP-10', 'ESP-2']);
    expect(ids(filterMachines(fleet, { ...NO_FILTERS, search: ' esp-1 ' }))).toEqual(['ESP-10', 'ESP-1']);
    expect(filterMachines(fleet, { ...NO_FILTERS, search: 'nowhere' })).toEqual([]);
  });

  it('filters by connection, owner (or none) and active alarm, together', () => {
    expect(ids(filterMachines(fleet, { ...NO_FILTERS, status: 'offline' }))).toEqual(['ESP-9', 'ESP-2']);
    expect(ids(filterMachines(fleet, { ...NO_FILTERS, owner: 'u-ana' }))).toEqual(['ESP-10', 'ESP-1']);
    expect(ids(filterMachines(fleet, { ...NO_FILTERS, owner: 'none' }))).toEqual(['ESP-2']);
    expect(ids(filterMachines(fleet, { ...NO_FILTERS, alarm: 'none' }))).toEqual(['ESP-10']);
    expect(ids(filterMachines(fleet, { ...NO_FILTERS, alarm: 'active', status: 'online' }))).toEqual(['ESP-1']);
  });

  it('sorts IDs in natural order and numbers as numbers, ties by ESP ID in both directions', () => {
    expect(ids(sortMachines(fleet, { key: 'espId', direction: 'asc' }))).toEqual(['ESP-1', 'ESP-2', 'ESP-9', 'ESP-10']);
    expect(ids(sortMachines(fleet, { key: 'revenue', direction: 'desc' }))).toEqual([
      'ESP-1',
      'ESP-10',
      'ESP-2',
      'ESP-9',
    ]);
    expect(ids(sortMachines(fleet, { key: 'revenue', direction: 'asc' }))).toEqual([
      'ESP-2',
      'ESP-9',
      'ESP-1',
      'ESP-10',
    ]);
    expect(ids(sortMachines(fleet, { key: 'litres', direction: 'desc' }))[0]).toBe('ESP-10');
    expect(ids(sortMachines(fleet, { key: 'trend', direction: 'desc' }))[0]).toBe('ESP-2');
  });

  it('sorts alarms by the worst severity before their number', () => {
    expect(ids(sortMachines(fleet, { key: 'alarms', direction: 'desc' }))).toEqual([
      'ESP-1',
      'ESP-2',
      'ESP-9',
      'ESP-10',
    ]);
  });

  it('lists each owner once, by name', () => {
    expect(ownersOf(fleet)).toEqual([ana, ben]);
  });
});
