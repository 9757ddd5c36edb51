import type { FleetMachine } from '@wv/contracts';

/** What a marker says about its machine (docs/web-app.md, "Fleet map"): an active alarm outranks the connection. */
export type MarkerStatus = 'online' | 'offline' | 'alarm';

/** The legend's order: the usual state first, the one that needs someone last. */
export const MARKER_STATUSES: readonly MarkerStatus[] = ['online', 'offline', 'alarm'];

export interface MarkerStyle {
  /** The fill, the stylesheet's success, muted and error colours (base.css). */
  color: string;
  /** A second cue beside the colour, for those who cannot tell the colours apart. */
  shape: 'circle' | 'square' | 'triangle';
  /** Drawn inside the alarm's triangle. */
  glyph: string;
}

export const MARKER_STYLES: Record<MarkerStatus, MarkerStyle> = {
  online: { color: '#15803d', shape: 'circle', glyph: '' },
  offline: { color: '#5b6b7b', shape: 'square', glyph: '' },
  alarm: { color: '#b91c1c', shape: 'triangle', glyph: '!' },
};

export function markerStatus(machine: Pick<FleetMachine, 'online' | 'activeAlarms'>): MarkerStatus {
  if (machine.activeAlarms > 0) return 'alarm';
  return machine.online ? 'online' : 'offline';
}

export interface PlacedMachine {
  machine: FleetMachine;
  latitude: number;
  longitude: number;
  status: MarkerStatus;
}

/** The machines with a position, each with its marker's status, and how many have none yet. */
export function placeMachines(machines: readonly FleetMachine[]): { placed: PlacedMachine[]; unplaced: number } {
  const placed: PlacedMachine[] = [];
  for (const machine of machines) {
    if (!machine.coordinates) continue;
    placed.push({ machine, ...machine.coordinates, status: markerStatus(machine) });
  }
  return { placed, unplaced: machines.length - placed.length };
}

/**
 * The marker's picture: a shape of the status's colour with a white edge, so that it stands out on any
 * background. `size` is the box in CSS pixels.
 */
export function markerSvg(status: MarkerStatus, size = 24): string {
  const { color, shape, glyph } = MARKER_STYLES[status];
  const body =
    shape === 'circle'
      ? `<circle cx="12" cy="12" r="8.5"/>`
      : shape === 'square'
        ? `<rect x="4" y="4" width="16" height="16" rx="1.5"/>`
        : `<path d="M12 2.5 22 20.5H2z"/>`;
  const mark = glyph
    ? `<text x="12" y="18.5" text-anchor="middle" font-size="12" font-weight="700" fill="#fff" stroke="none">${glyph}</text>`
    : '';
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" width="${size}" height="${size}" aria-hidden="true" focusable="false">` +
    `<g class="fleet-map-shape" fill="${color}" stroke="#fff" stroke-width="2" stroke-linejoin="round">${body}</g>${mark}</svg>`
  );
}

/** East Africa, where the map opens when no machine has a position: south-west and north-east corners. */
export const EAST_AFRICA_BOUNDS: [[number, number], [number, number]] = [
  [-12, 28],
  [5, 42],
];

/** The corners of the box around the positioned machines, or null when there are none. */
export function boundsOf(placed: readonly PlacedMachine[]): [[number, number], [number, number]] | null {
  if (placed.length === 0) return null;
  let [south, west, north, east] = [90, 180, -90, -180];
  for (const p of placed) {
    south = Math.min(south, p.latitude);
    north = Math.max(north, p.latitude);
    west = Math.min(west, p.longitude);
    east = Math.max(east, p.longitude);
  }
  return [
    [south, west],
    [north, east],
  ];
}

/** Text for a place where Leaflet puts HTML (the attribution): the operator's credit is shown as written. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
