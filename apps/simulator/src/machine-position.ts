import { createRandom } from './prng.js';

/** Where a simulated machine stands: WGS 84 degrees, six decimals, and the neighbourhood it is in. */
export interface SimulatedPosition {
  place: string;
  latitude: number;
  longitude: number;
}

/**
 * Neighbourhoods of Dar es Salaam with a point on land near the middle of each (WGS 84 degrees). The
 * first twelve follow the demo's machine locations, in order, so that a demo machine stands where its
 * location says.
 */
export const DAR_ES_SALAAM_SITES: readonly (readonly [place: string, latitude: number, longitude: number])[] = [
  ['Kariakoo', -6.8185, 39.2755],
  ['Mwenge', -6.7685, 39.2295],
  ['Ubungo', -6.788, 39.207],
  ['Sinza', -6.776, 39.22],
  ['Tegeta', -6.664, 39.201],
  ['Mbezi Beach', -6.727, 39.22],
  ['Kimara', -6.786, 39.16],
  ['Temeke', -6.865, 39.258],
  ['Buguruni', -6.837, 39.244],
  ['Kigamboni', -6.86, 39.32],
  ['Mikocheni', -6.762, 39.245],
  ['Tabata', -6.831, 39.215],
  ['Kinondoni', -6.777, 39.25],
  ['Posta', -6.8155, 39.2775],
  ['Mbagala', -6.91, 39.27],
  ['Gongo la Mboto', -6.893, 39.195],
];

/** At most this far (degrees, about 220 m) from the neighbourhood's point, so that machines of one place do not hide each other. */
const SPREAD = 0.002;

const sixDecimals = (v: number) => Math.round(v * 1e6) / 1e6;

/**
 * The position of the machine at `index` of a fleet: the same index always gives the same point, in
 * the neighbourhoods above in turn, each a little off its neighbourhood's point.
 */
export function machinePosition(index: number): SimulatedPosition {
  if (!Number.isInteger(index) || index < 0) throw new Error(`machine index ${index} is not a whole number from 0`);
  const [place, latitude, longitude] = DAR_ES_SALAAM_SITES[index % DAR_ES_SALAAM_SITES.length]!;
  const rng = createRandom(0x0da2).fork(index);
  return {
    place,
    latitude: sixDecimals(latitude + (rng.next() * 2 - 1) * SPREAD),
    longitude: sixDecimals(longitude + (rng.next() * 2 - 1) * SPREAD),
  };
}
