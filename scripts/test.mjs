#!/usr/bin/env node
// Runs every test: unit, integration and abuse cases (real PostgreSQL and Redis) in parallel workers, then the
// short fault suite, then the browser tests two files at a time. Prints one closing line "N passed, N failed".
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { preflight } from './preflight.mjs';

const requested = process.argv.slice(2);
const phases = [
  { projects: ['unit', 'integration', 'abuse', 'web'], extra: ['--maxWorkers=2'] },
  // The short fault suite alone: it measures recovery times, which other tests' load would distort.
  { projects: ['soak'], extra: ['--runInBand'] },
  // Two files at once, each with its own program, database and Chromium: one file at a time left a fifth of
  // the two cores idle, waiting on the browser and the program in turn (858 s one at a time, 603 s two at a
  // time on a slow morning; the slowest test then took 84 s of its 240 s timeout).
  { projects: ['e2e'], extra: ['--maxWorkers=2'] },
]
  .map((p) => ({ ...p, projects: p.projects.filter((x) => requested.length === 0 || requested.includes(x)) }))
  .filter((p) => p.projects.length > 0);

const wanted = phases.flatMap((p) => p.projects);
const problems = await preflight({
  services: wanted.some((p) => p !== 'unit' && p !== 'web'),
  browser: wanted.includes('e2e'),
});
if (problems.length > 0) {
  for (const problem of problems) console.error(problem);
  process.exit(1);
}

mkdirSync('.tmp', { recursive: true });
let passed = 0;
let failed = 0;
let ok = true;
for (const [i, phase] of phases.entries()) {
  const out = `.tmp/jest-${i}.json`;
  rmSync(out, { force: true });
  const args = [
    '--experimental-vm-modules',
    'node_modules/jest/bin/jest.js',
    '--selectProjects',
    ...phase.projects,
    '--json',
    `--outputFile=${out}`,
    ...phase.extra,
  ];
  const run = spawnSync(process.execPath, args, { stdio: 'inherit', env: { ...process.env, NODE_NO_WARNINGS: '1' } });
  try {
    const result = JSON.parse(readFileSync(out, 'utf8'));
    passed += result.numPassedTests;
    failed += result.numFailedTests + result.numRuntimeErrorTestSuites;
  } catch {
    failed += 1;
  }
  if (run.status !== 0) ok = false;
}
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(ok && failed === 0 ? 0 : 1);
