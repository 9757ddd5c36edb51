import type { AlarmSeverityLevel, FleetMachine } from '@wv/contracts';

/** The columns the table sorts by (docs/web-app.md, "Fleet dashboard"). */
export const SORT_KEYS = [
  'espId',
  'location',
  'owner',
  'status',
  'revenue',
  'litres',
  'sales',
  'trend',
  'alarms',
  'lastSeen',
] as const;
export type SortKey = (typeof SORT_KEYS)[number];

export interface SortState {
  key: SortKey;
  direction: 'asc' | 'desc';
}

export interface MachineFilters {
  /** Matched against the ESP ID and the location, case-insensitive. */
  search: string;
  status: 'all' | 'online' | 'offline';
  /** An owner's user id, `none` for machines nobody owns, or `all`. */
  owner: string;
  alarm: 'all' | 'active' | 'none';
}

export const NO_FILTERS: MachineFilters = { search: '', status: 'all', owner: 'all', alarm: 'all' };

const SEVERITY_RANK: Record<AlarmSeverityLevel, number> = { critical: 3, major: 2, minor: 1 };

const sum = (values: number[]) => values.reduce((total, v) => total + v, 0);

/** The value a column sorts by: numbers compare as numbers, text by the browser's collation. */
function sortValue(machine: FleetMachine, key: SortKey): number | string {
  switch (key) {
    case 'espId':
      return machine.espId;
    case 'location':
      return machine.location ?? '';
    case 'owner':
      return machine.owner?.name ?? '';
    case 'status':
      return machine.online ? 1 : 0;
    case 'revenue':
      return machine.today.revenue;
    case 'litres':
      return machine.today.litres;
    case 'sales':
      return machine.today.sales;
    case 'trend':
      return sum(machine.trend);
    case 'alarms':
      // The worst severity first, then the number of alarms.
      return (machine.worstSeverity ? SORT_WEIGHT * SEVERITY_RANK[machine.worstSeverity] : 0) + machine.activeAlarms;
    case 'lastSeen':
      return machine.lastSeen ? Date.parse(machine.lastSeen) : 0;
  }
}
const SORT_WEIGHT = 1_000_000;

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

export function filterMachines(machines: readonly FleetMachine[], filters: MachineFilters): FleetMachine[] {
  const needle = filters.search.trim().toLowerCase();
  return machines.filter(
    (m) =>
      (!needle || m.espId.toLowerCase().includes(needle) || (m.location ?? '').toLowerCase().includes(needle)) &&
      (filters.status === 'all' || m.online === (filters.status === 'online')) &&
      (filters.owner === 'all' || (filters.owner === 'none' ? m.owner === null : m.owner?.id === filters.owner)) &&
      (filters.alarm === 'all' || m.activeAlarms > 0 === (filters.alarm === 'active')),
  );
}

/** A stable sort: ties keep the ESP ID order, whatever the direction. */
export function sortMachines(machines: readonly FleetMachine[], sort: SortState): FleetMachine[] {
  const sign = sort.direction === 'asc' ? 1 : -1;
  return [...machines].sort((a, b) => {
    const x = sortValue(a, sort.key);
    const y = sortValue(b, sort.key);
    const order = typeof x === 'number' && typeof y === 'number' ? x - y : collator.compare(String(x), String(y));
    return order !== 0 ? sign * order : collator.compare(a.espId, b.espId);
  });
}

/** Owners present in the list, by name, for the admin's owner filter. */
export function ownersOf(machines: readonly FleetMachine[]): { id: string; name: string }[] {
  const owners = new Map<string, string>();
  for (const m of machines) if (m.owner) owners.set(m.owner.id, m.owner.name);
  return [...owners].map(([id, name]) => ({ id, name })).sort((a, b) => collator.compare(a.name, b.name));
}

/** Numbers sort from the largest on the first click; text from A. */
export const firstDirection = (key: SortKey): SortState['direction'] =>
  key === 'espId' || key === 'location' || key === 'owner' ? 'asc' : 'desc';
