#!/usr/bin/env node
// `node scripts/make-basemap.mjs`: writes apps/web/public/basemap/east-africa.geojson, the offline basemap
// of the fleet map (docs/web-app.md, "Fleet map"). Sources, all public domain Natural Earth data
// (naturalearthdata.com): land and country borders from the npm package world-atlas (Natural Earth 1:10m
// as TopoJSON), lakes Victoria, Tanganyika and Malawi from Natural Earth 1:110m lakes (kept beside this
// script in basemap/natural-earth-lakes.geojson), and the positions of the main cities below.
// The result is clipped to East Africa, simplified and rounded to 3 decimals (about 100 m).
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { feature, mesh } from 'topojson-client';

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(root, 'apps/web/public/basemap/east-africa.geojson');

/** West, south, east, north: Tanzania and its neighbours' nearby parts. */
const BOX = [27, -13, 43, 6];
/** Douglas–Peucker tolerance in degrees (about 150 m), then 3 decimals. */
const TOLERANCE = 0.0015;

/** Capitals and large towns; `capital` draws them larger. Degrees, rounded to 0.01. */
const CITIES = [
  ['Dar es Salaam', -6.79, 39.21, false],
  ['Dodoma', -6.17, 35.74, true],
  ['Zanzibar', -6.16, 39.19, false],
  ['Arusha', -3.37, 36.68, false],
  ['Moshi', -3.35, 37.34, false],
  ['Mwanza', -2.52, 32.9, false],
  ['Tanga', -5.07, 39.1, false],
  ['Morogoro', -6.82, 37.66, false],
  ['Mbeya', -8.9, 33.46, false],
  ['Iringa', -7.77, 35.69, false],
  ['Tabora', -5.02, 32.8, false],
  ['Kigoma', -4.88, 29.63, false],
  ['Mtwara', -10.27, 40.18, false],
  ['Songea', -10.68, 35.65, false],
  ['Bukoba', -1.33, 31.81, false],
  ['Musoma', -1.5, 33.8, false],
  ['Singida', -4.82, 34.74, false],
  ['Shinyanga', -3.66, 33.42, false],
  ['Lindi', -10.0, 39.71, false],
  ['Nairobi', -1.29, 36.82, true],
  ['Mombasa', -4.04, 39.67, false],
  ['Kisumu', -0.09, 34.77, false],
  ['Kampala', 0.35, 32.58, true],
  ['Kigali', -1.95, 30.06, true],
  ['Bujumbura', -3.38, 29.36, false],
  ['Gitega', -3.43, 29.93, true],
  ['Mzuzu', -11.46, 34.02, false],
  ['Kalemie', -5.93, 29.19, false],
];

const round = (v) => Math.round(v * 1000) / 1000;

function simplify(points, tolerance) {
  if (points.length < 3) return points;
  const keep = new Uint8Array(points.length);
  keep[0] = keep[points.length - 1] = 1;
  const stack = [[0, points.length - 1]];
  while (stack.length) {
    const [a, b] = stack.pop();
    const [ax, ay] = points[a];
    const [bx, by] = points[b];
    const dx = bx - ax;
    const dy = by - ay;
    const length = Math.hypot(dx, dy);
    let worst = -1;
    let far = 0;
    for (let i = a + 1; i < b; i += 1) {
      const [px, py] = points[i];
      const d = length === 0 ? Math.hypot(px - ax, py - ay) : Math.abs(dy * px - dx * py + bx * ay - by * ax) / length;
      if (d > far) [far, worst] = [d, i];
    }
    if (far > tolerance) {
      keep[worst] = 1;
      stack.push([a, worst], [worst, b]);
    }
  }
  return points.filter((_, i) => keep[i]);
}

/** Rounds, drops repeated points. */
function tidy(points) {
  const out = [];
  for (const [x, y] of points) {
    const p = [round(x), round(y)];
    const last = out[out.length - 1];
    if (!last || last[0] !== p[0] || last[1] !== p[1]) out.push(p);
  }
  return out;
}

/** Sutherland–Hodgman against the box: a ring stays a closed ring (its cut edges run along the box). */
function clipRing(ring) {
  const [w, s, e, n] = BOX;
  const edges = [
    [(p) => p[0] >= w, (a, b) => [w, a[1] + ((b[1] - a[1]) * (w - a[0])) / (b[0] - a[0])]],
    [(p) => p[0] <= e, (a, b) => [e, a[1] + ((b[1] - a[1]) * (e - a[0])) / (b[0] - a[0])]],
    [(p) => p[1] >= s, (a, b) => [a[0] + ((b[0] - a[0]) * (s - a[1])) / (b[1] - a[1]), s]],
    [(p) => p[1] <= n, (a, b) => [a[0] + ((b[0] - a[0]) * (n - a[1])) / (b[1] - a[1]), n]],
  ];
  let points = ring.slice(0, -1);
  for (const [inside, cut] of edges) {
    const next = [];
    for (let i = 0; i < points.length; i += 1) {
      const current = points[i];
      const previous = points[(i + points.length - 1) % points.length];
      if (inside(current)) {
        if (!inside(previous)) next.push(cut(previous, current));
        next.push(current);
      } else if (inside(previous)) next.push(cut(previous, current));
    }
    points = next;
    if (points.length === 0) return null;
  }
  const simple = tidy(simplify([...points, points[0]], TOLERANCE));
  return simple.length >= 4 ? simple : null;
}

function clipPolygons(geometry) {
  const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  const out = [];
  for (const polygon of polygons) {
    const [outer, ...holes] = polygon.map(clipRing);
    if (outer) out.push([outer, ...holes.filter(Boolean)]);
  }
  return out.length ? { type: 'MultiPolygon', coordinates: out } : null;
}

/** Keeps the parts of each line inside the box (Liang–Barsky per segment), split where a line leaves it. */
function clipLines(geometry) {
  const [w, s, e, n] = BOX;
  const lines = geometry.type === 'LineString' ? [geometry.coordinates] : geometry.coordinates;
  const out = [];
  for (const line of lines) {
    let piece = [];
    const flush = () => {
      const simple = tidy(simplify(piece, TOLERANCE));
      if (simple.length >= 2) out.push(simple);
      piece = [];
    };
    for (let i = 1; i < line.length; i += 1) {
      const [x0, y0] = line[i - 1];
      const [x1, y1] = line[i];
      const dx = x1 - x0;
      const dy = y1 - y0;
      let t0 = 0;
      let t1 = 1;
      let visible = true;
      for (const [p, q] of [
        [-dx, x0 - w],
        [dx, e - x0],
        [-dy, y0 - s],
        [dy, n - y0],
      ]) {
        if (p === 0) {
          if (q < 0) visible = false;
        } else {
          const r = q / p;
          if (p < 0) t0 = Math.max(t0, r);
          else t1 = Math.min(t1, r);
        }
      }
      if (!visible || t0 > t1) {
        if (piece.length) flush();
        continue;
      }
      const a = [x0 + t0 * dx, y0 + t0 * dy];
      const b = [x0 + t1 * dx, y0 + t1 * dy];
      if (!piece.length) piece.push(a);
      piece.push(b);
      if (t1 < 1) flush();
    }
    if (piece.length) flush();
  }
  return out.length ? { type: 'MultiLineString', coordinates: out } : null;
}

const countries = require('world-atlas/countries-10m.json');
const lakes = JSON.parse(readFileSync(join(root, 'scripts/basemap/natural-earth-lakes.geojson'), 'utf8'));

const features = [];
const landParts = feature(countries, countries.objects.land);
const land = clipPolygons({
  type: 'MultiPolygon',
  coordinates: (landParts.features ?? [landParts]).flatMap(({ geometry }) =>
    geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates,
  ),
});
if (land) features.push({ type: 'Feature', properties: { kind: 'land' }, geometry: land });
for (const lake of lakes.features) {
  const geometry = clipPolygons(lake.geometry);
  if (geometry) features.push({ type: 'Feature', properties: { kind: 'lake', name: lake.properties.name }, geometry });
}
const coast = clipLines(mesh(countries, countries.objects.land));
if (coast) features.push({ type: 'Feature', properties: { kind: 'coast' }, geometry: coast });
const borders = clipLines(mesh(countries, countries.objects.countries, (a, b) => a !== b));
if (borders) features.push({ type: 'Feature', properties: { kind: 'border' }, geometry: borders });
for (const [name, lat, lon, capital] of CITIES) {
  features.push({
    type: 'Feature',
    properties: { kind: 'city', name, capital },
    geometry: { type: 'Point', coordinates: [lon, lat] },
  });
}

const basemap = {
  type: 'FeatureCollection',
  attribution: 'Natural Earth (public domain)',
  bbox: BOX,
  features,
};
mkdirSync(dirname(OUT), { recursive: true });
writeFileSync(OUT, `${JSON.stringify(basemap)}\n`);
console.log(`Wrote ${OUT} (${Math.round(JSON.stringify(basemap).length / 1024)} KB, ${features.length} features)`);
