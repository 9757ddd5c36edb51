#!/usr/bin/env node
// `npm run bench [-- name …]`: runs bench/<name>.bench.mjs for each name (all when none is given),
// each writing its figures into bench/results/latest.json, then prints every result.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, existsSync } from 'node:fs';

const available = readdirSync('bench')
  .filter((f) => f.endsWith('.bench.mjs'))
  .map((f) => f.replace('.bench.mjs', ''));
const requested = process.argv.slice(2);
const unknown = requested.filter((n) => !available.includes(n));
if (unknown.length) {
  console.error(`Unknown benchmark ${unknown.join(', ')}; available: ${available.join(', ')}`);
  process.exit(1);
}
let failed = false;
for (const name of requested.length ? requested : available) {
  console.log(`\n=== bench ${name} ===`);
  const run = spawnSync(process.execPath, [`bench/${name}.bench.mjs`], { stdio: 'inherit' });
  if (run.status !== 0) failed = true;
}
if (existsSync('bench/results/latest.json')) {
  console.log('\nAll results (bench/results/latest.json):');
  for (const [name, r] of Object.entries(JSON.parse(readFileSync('bench/results/latest.json', 'utf8')))) {
    console.log(`\n${name} (${r.measuredAt})`);
    console.table(r.figures);
  }
}
process.exit(failed ? 1 : 0);
