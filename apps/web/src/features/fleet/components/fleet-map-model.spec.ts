import { describe, expect, it } from '@jest/globals';
import type { FleetMachine } from '@wv/contracts';
import {
  boundsOf,
  escapeHtml,
  MARKER_STATUSES,
  MARKER_STYLES,
  markerStatus,
  markerSvg,
  placeMachines,
} from './fleet-map-model';

const machine = (over: Partial<FleetMachine>): FleetMachine => ({
  espId: 'ESP-1',
  location: 'Kariakoo',
  coordinates: { latitude: -6.8185, longitude: 39.2755 },
  owner: null,
  online: true,
  lastSeen: null,
  today: { revenue: 0, litres: 0, sales: 0 },
  trend: [],
  activeAlarms: 0,
  worstSeverity: null,
  ...over,
});

describe('the fleet map markers', () => {
  it('mark an active alarm above the connection, then online or offline', () => {
    expect(markerStatus({ online: true, activeAlarms: 0 })).toBe('online');
    expect(markerStatus({ online: false, activeAlarms: 0 })).toBe('offline');
    expect(markerStatus({ online: true, activeAlarms: 2 })).toBe('alarm');
    expect(markerStatus({ online: false, activeAlarms: 1 })).toBe('alarm');
  });

  it('tell the three states apart by colour and by shape alike, in the legend order', () => {
    expect(MARKER_STATUSES).toEqual(['online', 'offline', 'alarm']);
    const colours = MARKER_STATUSES.map((s) => MARKER_STYLES[s].color);
    const shapes = MARKER_STATUSES.map((s) => MARKER_STYLES[s].shape);
    expect(new Set(colours).size).toBe(3);
    expect(new Set(shapes).size).toBe(3);
    expect(MARKER_STYLES.online).toMatchObject({ color: '#15803d', shape: 'circle' });
    expect(MARKER_STYLES.offline).toMatchObject({ color: '#5b6b7b', shape: 'square' });
    expect(MARKER_STYLES.alarm).toMatchObject({ color: '#b91c1c', shape: 'triangle', glyph: '!' });
  });

  it('draw each state with its colour and shape, the alarm with its !', () => {
    expect(markerSvg('online')).toMatch(/fill="#15803d".*<circle /);
    expect(markerSvg('offline')).toMatch(/fill="#5b6b7b".*<rect /);
    const alarm = markerSvg('alarm');
    expect(alarm).toMatch(/fill="#b91c1c".*<path /);
    expect(alarm).toContain('>!</text>');
    expect(markerSvg('online')).not.toContain('<text');
  });

  it('place the machines with coordinates and count those without', () => {
    const { placed, unplaced } = placeMachines([
      machine({ espId: 'A' }),
      machine({ espId: 'B', coordinates: null }),
      machine({ espId: 'C', online: false, coordinates: { latitude: -6.7, longitude: 39.2 } }),
      machine({ espId: 'D', coordinates: null, activeAlarms: 1 }),
    ]);
    expect(unplaced).toBe(2);
    expect(placed.map((p) => [p.machine.espId, p.latitude, p.longitude, p.status])).toEqual([
      ['A', -6.8185, 39.2755, 'online'],
      ['C', -6.7, 39.2, 'offline'],
    ]);
  });

  it('frame the positioned machines, and nothing when none has a position', () => {
    const { placed } = placeMachines([
      machine({ coordinates: { latitude: -6.9, longitude: 39.3 } }),
      machine({ coordinates: { latitude: -6.66, longitude: 39.15 } }),
    ]);
    expect(boundsOf(placed)).toEqual([
      [-6.9, 39.15],
      [-6.66, 39.3],
    ]);
    expect(boundsOf([])).toBeNull();
  });

  it('show an operator’s map credit as text, never as markup', () => {
    expect(escapeHtml('© <b>Tiles</b> & "Co"')).toBe('© &lt;b&gt;Tiles&lt;/b&gt; &amp; &quot;Co&quot;');
  });
});
