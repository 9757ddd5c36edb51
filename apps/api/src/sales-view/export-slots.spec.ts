import { describe, expect, it } from '@jest/globals';
import { AppError } from '../common/app-error.js';
import { ExportAbandoned, ExportSlots } from './export-slots.js';

const limits = { slots: 2, perAccount: 2, queue: 2, maxWaitMs: 60_000 };
const never = () => new AbortController().signal;
const code = (promise: Promise<unknown>) =>
  promise.then(
    () => 'admitted',
    (error: unknown) => (error instanceof AppError ? `${error.status} ${error.code}` : (error as Error).name),
  );

describe('ExportSlots', () => {
  it('admits up to the slots, queues the next ones and hands a freed slot to the oldest waiter', async () => {
    const slots = new ExportSlots(limits);
    const releaseA = await slots.acquire('a', never());
    await slots.acquire('b', never());
    let admitted = false;
    const waiting = slots.acquire('c', never()).then(() => (admitted = true));
    expect(slots.stats).toEqual({ running: 2, waiting: 1 });
    releaseA();
    await waiting;
    expect(admitted).toBe(true);
    expect(slots.stats).toEqual({ running: 2, waiting: 0 });
  });

  it('refuses an account’s export beyond its limit with 429, running and waiting counted', async () => {
    const slots = new ExportSlots({ ...limits, slots: 1 });
    await slots.acquire('a', never());
    // Its rejection is awaited below: left unhandled, its 60 s timer would fail whichever test file
    // the same Jest worker runs a minute later.
    const second = slots.acquire('a', never()).catch((error: unknown) => error);
    expect(await code(slots.acquire('a', never()))).toBe('429 RateLimited');
    expect(slots.stats.waiting).toBe(1);
    slots.close();
    expect(await second).toBeInstanceOf(ExportAbandoned);
  });

  it('refuses with 503 when the queue is full, and when the wait grows too long', async () => {
    const slots = new ExportSlots({ ...limits, slots: 1, queue: 1, maxWaitMs: 50 });
    await slots.acquire('a', never());
    const waiter = code(slots.acquire('b', never()));
    expect(await code(slots.acquire('c', never()))).toBe('503 ServiceUnavailable');
    expect(await waiter).toBe('503 ServiceUnavailable');
    expect(slots.stats).toEqual({ running: 1, waiting: 0 });
  });

  it('gives a waiting place up when its client goes away, and its account may export again', async () => {
    const slots = new ExportSlots({ ...limits, slots: 1, perAccount: 1 });
    const release = await slots.acquire('a', never());
    const gone = new AbortController();
    const waiter = slots.acquire('b', gone.signal).catch((error: unknown) => error);
    gone.abort();
    expect(await waiter).toBeInstanceOf(ExportAbandoned);
    expect(slots.stats).toEqual({ running: 1, waiting: 0 });
    release();
    release(); // a second call changes nothing
    expect(slots.stats).toEqual({ running: 0, waiting: 0 });
    await slots.acquire('b', never());
  });

  it('at shutdown lets every waiting export go as abandoned, leaving no timer to fire later', async () => {
    const slots = new ExportSlots({ ...limits, slots: 1, maxWaitMs: 50 });
    await slots.acquire('a', never());
    const waiters = [slots.acquire('b', never()), slots.acquire('c', never())].map((w) =>
      w.catch((error: unknown) => error),
    );
    slots.close();
    for (const waiter of waiters) expect(await waiter).toBeInstanceOf(ExportAbandoned);
    expect(slots.stats).toEqual({ running: 1, waiting: 0 });
  });
});
