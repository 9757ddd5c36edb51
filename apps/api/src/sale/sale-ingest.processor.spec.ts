import { describe, expect, it } from '@jest/globals';
import type { Job } from 'bullmq';
import { WorkerPriority } from '../common/process-priority.js';
import type { AppConfig } from '../config/app-config.js';
import { LIVE_JOBS_PER_BACKFILL_JOB, SaleIngestProcessor } from './sale-ingest.processor.js';
import type { SaleIngestQueue } from './sale-ingest.queue.js';
import type { QueuedSalesMessage, SaleIngestService } from './sale-ingest.service.js';
import type { SalesIngestJob } from './sale-ingest.types.js';

// The backfill lane's fair share (docs/architecture.md, "Backfill and live sales"): strict priority
// alone would starve a backlog while live jobs keep the workers busy.

const job = (id: number, offline: boolean, timestamp = Date.now()): Job<SalesIngestJob> =>
  ({
    id: String(id),
    timestamp,
    data: {
      messages: [
        {
          espId: 'M-1',
          topic: 'wv/v1/machines/M-1/sales',
          payload: JSON.stringify([{ eventId: `e${id}`, ...(offline ? { offline: true } : {}) }]),
          receivedAt: new Date(0).toISOString(),
          source: 'mqtt',
        },
      ],
    },
  }) as unknown as Job<SalesIngestJob>;

function processor(write: (keys: string[]) => Promise<void> = async () => undefined, priority = new WorkerPriority()) {
  const written: string[] = [];
  const writes: string[][] = [];
  let letThrough = 0;
  const ingest = {
    ingestQueued: async (items: QueuedSalesMessage[]) => {
      const keys = [...new Set(items.map((item) => item.batchKey))];
      written.push(...keys);
      writes.push(keys);
      await write(keys);
      return { inserted: [], duplicates: 0, deadLettered: 0 };
    },
  } as unknown as SaleIngestService;
  const queue = {
    letBackfillThrough: async () => {
      letThrough++;
      return true;
    },
  } as unknown as SaleIngestQueue;
  const p = new SaleIngestProcessor(ingest, queue, {} as AppConfig, priority);
  return { p, written, writes, letThrough: () => letThrough };
}

describe('SaleIngestProcessor fair share for backfill', () => {
  it(`lets one backfill job through after every ${LIVE_JOBS_PER_BACKFILL_JOB} live jobs in a row`, async () => {
    const { p, written, letThrough } = processor();
    for (let i = 0; i < LIVE_JOBS_PER_BACKFILL_JOB * 3; i++) await p.process(job(i, false));
    expect(letThrough()).toBe(3);
    expect(written).toHaveLength(LIVE_JOBS_PER_BACKFILL_JOB * 3);
  });

  it('counts again from a backfill job: live sales keep the larger share', async () => {
    const { p, letThrough } = processor();
    for (let i = 0; i < LIVE_JOBS_PER_BACKFILL_JOB - 1; i++) await p.process(job(i, false));
    await p.process(job(100, true));
    for (let i = 0; i < LIVE_JOBS_PER_BACKFILL_JOB - 1; i++) await p.process(job(200 + i, false));
    expect(letThrough()).toBe(0);
    await p.process(job(300, false));
    expect(letThrough()).toBe(1);
  });
});

describe('SaleIngestProcessor writes the jobs that wait together', () => {
  it('writes a job alone when nothing is in flight, and the jobs that came meanwhile in one transaction', async () => {
    let release: () => void = () => undefined;
    const { p, writes } = processor((keys) =>
      keys.includes('job-1') ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve(),
    );
    const first = p.process(job(1, false));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(writes).toEqual([['job-1']]);
    const others = [2, 3, 4].map((id) => p.process(job(id, false)));
    await new Promise((resolve) => setTimeout(resolve, 5));
    // Partial batches wait for the flight: nothing else is written while job-1's transaction is open.
    expect(writes).toEqual([['job-1']]);
    release();
    await Promise.all([first, ...others]);
    expect(writes).toEqual([['job-1'], ['job-2', 'job-3', 'job-4']]);
  });

  it('fails every job of a transaction that fails, so that each is retried', async () => {
    const { p } = processor(async () => {
      throw new Error('connection reset');
    });
    const results = await Promise.allSettled([1, 2].map((id) => p.process(job(id, false))));
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });
});

describe('SaleIngestProcessor and the CPU priority of the worker (docs/performance.md, "The worker yields")', () => {
  it('tells the priority how long each live job waited until committed, never a backfill job', async () => {
    const calls: number[] = [];
    const priority = new WorkerPriority(
      (niceness, needs) => {
        if (needs(5)) calls.push(niceness);
        return 1;
      },
      () => performance.now(),
      () => 0,
    );
    priority.start(10);
    const { p } = processor(undefined, priority);
    // A backfill job that waited a minute (on purpose, behind live jobs) does not count as falling behind.
    await p.process(job(1, true, Date.now() - 60_000));
    expect(priority.catchingUp).toBe(false);
    await p.process(job(2, false, Date.now() - 100));
    expect(priority.catchingUp).toBe(false);
    await p.process(job(3, false, Date.now() - 3_000));
    expect(priority.catchingUp).toBe(true);
    expect(calls).toEqual([10, 0]);
  });
});
