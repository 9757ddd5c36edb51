import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { Fleet } from './fleet.js';
import { DAR_ES_SALAAM_SITES, machinePosition } from './machine-position.js';

type Ring = [number, number][];

/** The land of the web app's offline basemap (docs/web-app.md, "Fleet map"), as polygons of rings. */
function basemapLand(): Ring[][] {
  const file = new URL('../../web/public/basemap/east-africa.geojson', import.meta.url);
  const basemap = JSON.parse(readFileSync(file, 'utf8')) as {
    features: { properties: { kind: string }; geometry: { coordinates: Ring[][] } }[];
  };
  return basemap.features.find((f) => f.properties.kind === 'land')!.geometry.coordinates;
}

/** Even-odd rule: a point is inside a ring when a ray from it crosses the ring an odd number of times. */
function inRing(x: number, y: number, ring: Ring): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

describe('where a simulated machine stands', () => {
  it('gives the same point for the same index, and different points to different machines', () => {
    expect(machinePosition(7)).toEqual(machinePosition(7));
    const points = Array.from({ length: 200 }, (_, i) => machinePosition(i));
    expect(new Set(points.map((p) => `${p.latitude},${p.longitude}`)).size).toBe(200);
  });

  it('keeps every machine within Dar es Salaam, near its neighbourhood', () => {
    for (let i = 0; i < 100; i++) {
      const p = machinePosition(i);
      expect(p.latitude).toBeGreaterThanOrEqual(-6.95);
      expect(p.latitude).toBeLessThanOrEqual(-6.65);
      expect(p.longitude).toBeGreaterThanOrEqual(39.1);
      expect(p.longitude).toBeLessThanOrEqual(39.35);
      const [place, lat, lon] = DAR_ES_SALAAM_SITES[i % DAR_ES_SALAAM_SITES.length]!;
      expect(p.place).toBe(place);
      expect(Math.abs(p.latitude - lat)).toBeLessThanOrEqual(0.002);
      expect(Math.abs(p.longitude - lon)).toBeLessThanOrEqual(0.002);
    }
  });

  it('puts every neighbourhood, to the edge of its spread, on land on the basemap the map draws', () => {
    const land = basemapLand();
    const onLand = (lat: number, lon: number) =>
      land.some(([outer, ...holes]) => inRing(lon, lat, outer!) && !holes.some((h) => inRing(lon, lat, h)));
    const corners = [
      [0, 0],
      [1, 1],
      [1, -1],
      [-1, 1],
      [-1, -1],
    ];
    for (const [place, lat, lon] of DAR_ES_SALAAM_SITES) {
      const wet = corners.filter(([a, b]) => !onLand(lat + a! * 0.002, lon + b! * 0.002));
      expect({ place, wet }).toEqual({ place, wet: [] });
    }
  });

  it("places a fleet's machines by their order in it, whatever the seed", () => {
    const fleet = new Fleet({ url: 'mqtt://127.0.0.1:9', machines: 3, seed: 11 });
    const other = new Fleet({ url: 'mqtt://127.0.0.1:9', machines: 3, seed: 12 });
    expect(fleet.machines.map((m) => fleet.position(m))).toEqual([0, 1, 2].map(machinePosition));
    expect(other.machines.map((m) => other.position(m))).toEqual([0, 1, 2].map(machinePosition));
    expect(() => fleet.position(other.machines[0]!)).toThrow('the machine is not in this fleet');
  });

  it('refuses an index that is not a whole number from 0', () => {
    expect(() => machinePosition(-1)).toThrow('machine index -1');
    expect(() => machinePosition(1.5)).toThrow('machine index 1.5');
  });
});
