import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { PROGRAM_NODE_ARGS } from '../../bench/lib/stack.mjs';

/**
 * The program's node flags (docs/performance.md, "A larger young generation") are written in three places: the
 * image's CMD, `npm start` (root and apps/api) and the benchmarks' stack, which must measure what production runs.
 */
const ROOT = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, ROOT), 'utf8');

/** The flags of a `node [flags…] …/main.js` command line. */
function flagsOf(command: string[]): string[] {
  const node = command.indexOf('node');
  const main = command.findIndex((part) => part.endsWith('dist/main.js'));
  expect(node).toBeGreaterThanOrEqual(0);
  expect(main).toBeGreaterThan(node);
  return command.slice(node + 1, main);
}

const dockerCmd = (): string[] => {
  const line = read('Dockerfile')
    .split('\n')
    .find((l) => l.startsWith('CMD '));
  return JSON.parse(line!.slice('CMD '.length)) as string[];
};
const startScript = (path: string): string[] =>
  (JSON.parse(read(path)) as { scripts: { start: string } }).scripts.start.split(' ');

describe('the program’s node flags', () => {
  const flags = flagsOf(dockerCmd());

  it('are the same in the image, npm start and the benchmarks', () => {
    expect(flags).toContain('--max-semi-space-size=64');
    expect(flagsOf(startScript('package.json'))).toEqual(flags);
    expect(flagsOf(startScript('apps/api/package.json'))).toEqual(flags);
    expect(PROGRAM_NODE_ARGS).toEqual(flags);
  });

  it('are accepted by this node', () => {
    const run = spawnSync(process.execPath, [...flags, '-e', '0'], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});
