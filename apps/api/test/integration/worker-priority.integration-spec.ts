import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readdirSync } from 'node:fs';
import { getPriority } from 'node:os';
import { startApp } from '../../src/bootstrap.js';
import { createDeployment, spawnServer, type Deployment, type ServerProcess } from '../support/server-process.js';
import { createTestApp } from '../support/test-app.js';

/** The niceness of every thread of a process: getpriority(2) of each thread id under /proc/PID/task. */
function niceness(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).flatMap((task) => {
    try {
      return [getPriority(Number(task))];
    } catch {
      return []; // the thread ended
    }
  });
}

/**
 * A worker-only process lowers its own CPU priority (WORKER_NICE, default 10), every thread of it, so that a broker
 * on the same host answers its machines first; a process that runs the broker keeps the priority it started with
 * (docs/performance.md, "The worker yields").
 */
describe('the CPU priority of each process kind', () => {
  let deployment: Deployment;
  const processes: ServerProcess[] = [];
  const spawn = async (env: Record<string, string>) => {
    const p = await spawnServer(deployment, env);
    processes.push(p);
    return p;
  };
  const own = niceness(process.pid)[0]!;

  beforeAll(async () => {
    deployment = await createDeployment({ LOG_LEVEL: 'log' });
  }, 60_000);
  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await deployment?.cleanup();
  }, 60_000);

  it('runs a worker-only process at niceness 10 by default, every thread, and says so', async () => {
    const broker = await spawn({ APP_ROLES: 'api,broker' });
    const worker = await spawn({ APP_ROLES: 'worker' });
    const threads = niceness(worker.process.pid!);
    expect(threads.length).toBeGreaterThan(1);
    expect(new Set(threads)).toEqual(new Set([Math.max(own, 10)]));
    // Said when it changed something: a runner started nicer than 10 leaves nothing to change.
    if (own < 10) expect(worker.output()).toContain('Running at CPU niceness 10 (WORKER_NICE)');
    expect(new Set(niceness(broker.process.pid!))).toEqual(new Set([own]));
  }, 60_000);

  it('leaves a worker as started with WORKER_NICE=0, and a process of every role in any case', async () => {
    const worker = await spawn({ APP_ROLES: 'worker', WORKER_NICE: '0' });
    expect(new Set(niceness(worker.process.pid!))).toEqual(new Set([own]));
    expect(worker.output()).not.toContain('CPU niceness');
    const all = await spawn({ WORKER_NICE: '15' });
    expect(new Set(niceness(all.process.pid!))).toEqual(new Set([own]));
  }, 60_000);

  it('leaves the priority of a process that starts a worker-only app among others (a test, the demo) alone', async () => {
    const t = await createTestApp({ APP_ROLES: 'api,broker' });
    try {
      expect(t.config.workerNice).toBe(10);
      const worker = await startApp({ ...t.config, port: 0, roles: new Set(['worker']) });
      try {
        expect(new Set(niceness(process.pid))).toEqual(new Set([own]));
      } finally {
        await worker.close();
      }
    } finally {
      await t.close();
    }
  }, 60_000);
});
