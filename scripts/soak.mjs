#!/usr/bin/env node
// The fault suite at full length (README.md, "Fault suite"): SOAK_RUNS seeded runs (100 unless set), or one run with
// SOAK_SEED=n to replay a seed that failed. The short version runs inside `npm test`.
import { spawnSync } from 'node:child_process';

const env = { ...process.env, NODE_NO_WARNINGS: '1' };
if (!env.SOAK_SEED) env.SOAK_RUNS ??= '100';
const run = spawnSync(
  process.execPath,
  ['--experimental-vm-modules', 'node_modules/jest/bin/jest.js', '--selectProjects', 'soak', '--runInBand'],
  { stdio: 'inherit', env },
);
process.exit(run.status ?? 1);
