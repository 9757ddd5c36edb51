import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { startApp } from '../../src/bootstrap.js';
import { CATCH_UP } from '../../src/common/process-priority.js';
import { SALES_QUEUE } from '../../src/queue/queue-connection.js';
import { createDeployment, spawnServer, type Deployment, type ServerProcess } from '../support/server-process.js';
import { createTestApp } from '../support/test-app.js';
import { waitFor } from '../support/mqtt-machine.js';
import { TEST_REDIS_URL } from '../support/test-databases.js';

/**
 * Whether a process started from this one may lower its niceness again: CAP_SYS_NICE (bit 23 of CapEff) or an
 * RLIMIT_NICE of 20 or more ("Max nice priority" in /proc/self/limits).
 */
function mayTakePriorityBack(): boolean {
  const capEff = /^CapEff:\s*([0-9a-f]+)/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? '0';
  const limit = /^Max nice priority\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1] ?? '0';
  return (BigInt(`0x${capEff}`) & (1n << 23n)) !== 0n || Number(limit) >= 20;
}

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

  it('takes its priority back while live sales commit over a second after they were queued, and yields again once caught up', async () => {
    // A deployment of its own: the workers of the other tests would take the jobs from the queue too.
    const separate = await createDeployment({ LOG_LEVEL: 'log' });
    const worker = await spawnServer(separate, { APP_ROLES: 'worker' });
    const pid = worker.process.pid!;
    const start = Math.max(own, 10);
    expect(new Set(niceness(pid))).toEqual(new Set([start]));
    const connection = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
    const queue = new Queue(SALES_QUEUE, { connection, prefix: `${separate.redisPrefix}:bull` });
    let n = 0;
    // A sales job as the broker queues it (a machine the database does not know: dead-lettered, committed all the same).
    const add = (queuedAgoMs: number) =>
      queue.add(
        'batch',
        {
          messages: [
            {
              espId: 'PRIORITY-TEST',
              topic: 'wv/v1/machines/PRIORITY-TEST/sales',
              payload: JSON.stringify({ eventId: `e-${++n}`, kind: 'coin', price: 20, volume: 1, waterType: 'fresh' }),
              receivedAt: new Date().toISOString(),
              source: 'mqtt',
            },
          ],
        },
        { timestamp: Date.now() - queuedAgoMs, removeOnComplete: true },
      );
    try {
      // A job that waited three seconds before this worker took it: behind.
      await add(3 * CATCH_UP.behindMs);
      if (!mayTakePriorityBack()) {
        await waitFor(
          async () => worker.output(),
          (output) => output.includes('may not take its CPU priority back'),
          20_000,
        );
        expect(new Set(niceness(pid))).toEqual(new Set([start]));
        return;
      }
      await waitFor(
        async () => niceness(pid),
        (threads) => threads.every((nice) => nice === 0),
        20_000,
      );
      expect(worker.output()).toContain('running at CPU niceness 0 until the worker has kept up for 5 s');
      // Fresh jobs, each committed at once: after holdMs of them, it yields again.
      const fresh = setInterval(() => void add(0), 200);
      try {
        await waitFor(
          async () => niceness(pid),
          (threads) => threads.every((nice) => nice === start),
          CATCH_UP.holdMs + 20_000,
        );
      } finally {
        clearInterval(fresh);
      }
      expect(worker.output()).toContain(`Caught up for 5 s: back at CPU niceness ${start} (WORKER_NICE)`);
    } finally {
      await queue.close();
      await connection.quit();
      await worker.stop();
      await separate.cleanup();
    }
  }, 90_000);

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
