import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { COMPANY, SaleBatcher, type SaleBatcherOptions } from '../src/sale-batcher.js';
import { deferred, sleep, waitFor, type Deferred } from './support/broker-harness.js';

/** A persist function whose calls stay open until the test settles them. */
function heldPersist() {
  const calls: Array<{ items: number[]; done: Deferred }> = [];
  const persist = jest.fn((items: number[]) => {
    const done = deferred();
    calls.push({ items, done });
    return done.promise;
  });
  return { calls, persist };
}

function batcher(persist: SaleBatcherOptions<number>['persist'], options: Partial<SaleBatcherOptions<number>> = {}) {
  return new SaleBatcher<number>({ persist, maxBatch: 500, lingerMs: 2, maxInFlight: 1, timeoutMs: 0, ...options });
}

describe('SaleBatcher', () => {
  it('groups items added within the linger time into one persist call', async () => {
    const persist = jest.fn(async (_items: number[]) => {});
    const b = batcher(persist, { lingerMs: 20 });
    await Promise.all([1, 2, 3, 4].map((n) => b.add(n)));
    expect(persist).toHaveBeenCalledTimes(1);
    expect(persist).toHaveBeenCalledWith([1, 2, 3, 4]);
  });

  it('flushes at once when a full batch is waiting, without lingering', async () => {
    const persist = jest.fn(async (_items: number[]) => {});
    const b = batcher(persist, { maxBatch: 3, lingerMs: 60_000, maxInFlight: 2 });
    const added = [1, 2, 3].map((n) => b.add(n));
    expect(persist).toHaveBeenCalledWith([1, 2, 3]);
    await Promise.all(added);
  });

  it('sends everything that arrived during a flight together as soon as the flight lands', async () => {
    const { calls, persist } = heldPersist();
    const b = batcher(persist);
    const first = b.add(0);
    await waitFor(() => calls.length === 1);
    const rest = [1, 2, 3, 4, 5].map((n) => b.add(n));
    await sleep(20);
    expect(calls).toHaveLength(1);
    expect(b.pendingCount).toBe(5);
    calls[0]!.done.resolve();
    await first;
    await waitFor(() => calls.length === 2);
    expect(calls[1]!.items).toEqual([1, 2, 3, 4, 5]);
    calls[1]!.done.resolve();
    await Promise.all(rest);
  });

  it('sends full batches beside a flight, and a partial one only when every flight has landed', async () => {
    const { calls, persist } = heldPersist();
    const b = batcher(persist, { maxBatch: 3, lingerMs: 0, maxInFlight: 3, maxPartialInFlight: 1 });
    const added = [b.add(0)];
    await waitFor(() => calls.length === 1);
    added.push(...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => b.add(n)));
    // Two full batches join the flight at once; the third full one and the partial rest wait for room.
    expect(calls.map((c) => c.items)).toEqual([[0], [1, 2, 3], [4, 5, 6]]);
    expect(b.pendingCount).toBe(4);
    calls[1]!.done.resolve();
    await waitFor(() => calls.length === 4);
    expect(calls[3]!.items).toEqual([7, 8, 9]);
    await sleep(20);
    expect(calls).toHaveLength(4);
    calls[0]!.done.resolve();
    calls[2]!.done.resolve();
    await sleep(20);
    expect(calls).toHaveLength(4);
    calls[3]!.done.resolve();
    await waitFor(() => calls.length === 5);
    expect(calls[4]!.items).toEqual([10]);
    calls[4]!.done.resolve();
    await Promise.all(added);
    expect(b.inFlightCount + b.pendingCount).toBe(0);
  });

  it('resolves an item only after the persist call holding it resolved', async () => {
    const { calls, persist } = heldPersist();
    const b = batcher(persist);
    let settled = false;
    const added = b.add(7).then(() => (settled = true));
    await waitFor(() => calls.length === 1);
    await sleep(20);
    expect(settled).toBe(false);
    calls[0]!.done.resolve();
    await added;
    expect(settled).toBe(true);
  });

  it("fails every item of a rejected batch, and only that batch's items", async () => {
    const { calls, persist } = heldPersist();
    const b = batcher(persist);
    const firstBatch = [b.add(1), b.add(2)].map((p) =>
      p.then(
        () => 'ok',
        (e: Error) => e.message,
      ),
    );
    await waitFor(() => calls.length === 1);
    const secondBatch = b.add(3);
    calls[0]!.done.reject(new Error('database down'));
    expect(await Promise.all(firstBatch)).toEqual(['database down', 'database down']);
    await waitFor(() => calls.length === 2);
    calls[1]!.done.resolve();
    await expect(secondBatch).resolves.toBeUndefined();
  });

  it("tells how long each persisted item waited, from its add to its batch's landing, and nothing of a failed batch", async () => {
    const { calls, persist } = heldPersist();
    const waits: number[] = [];
    const b = batcher(persist, { onItemPersisted: (ms) => waits.push(ms) });
    const failed = b.add(1).catch(() => 'failed');
    await waitFor(() => calls.length === 1);
    calls[0]!.done.reject(new Error('database down'));
    expect(await failed).toBe('failed');
    expect(waits).toEqual([]);

    const early = b.add(2);
    await waitFor(() => calls.length === 2);
    const late = b.add(3);
    await sleep(30);
    calls[1]!.done.resolve();
    await early;
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(25);
    await waitFor(() => calls.length === 3);
    calls[2]!.done.resolve();
    await late;
    expect(waits).toHaveLength(2);
    // Item 3 came while item 2's flight was in the air: it waited for that landing and its own flight.
    expect(waits[1]).toBeGreaterThanOrEqual(25);
  });

  it('turns a synchronous throw of persist into a failed batch', async () => {
    const b = batcher(() => {
      throw new Error('boom');
    });
    await expect(b.add(1)).rejects.toThrow('boom');
  });

  it('fails a batch whose persist call outlives the timeout', async () => {
    const { persist } = heldPersist();
    const b = batcher(persist, { timeoutMs: 30 });
    await expect(b.add(1)).rejects.toThrow('timed out');
  });

  it('drains what is waiting on close and refuses new items', async () => {
    const persist = jest.fn(async (_items: number[]) => {});
    const b = batcher(persist, { lingerMs: 60_000 });
    const added = b.add(1);
    await b.drain();
    await added;
    expect(persist).toHaveBeenCalledWith([1]);
    await expect(b.add(2)).rejects.toThrow('closed');
  });

  it('fails waiting and in-flight items on abort and ignores the late answer', async () => {
    const { calls, persist } = heldPersist();
    const b = batcher(persist);
    const inFlight = b.add(1);
    await waitFor(() => calls.length === 1);
    const waiting = b.add(2);
    b.abort(new Error('shutting down'));
    await expect(inFlight).rejects.toThrow('shutting down');
    await expect(waiting).rejects.toThrow('shutting down');
    calls[0]!.done.resolve();
    expect(b.inFlightCount).toBe(0);
  });
});

describe('SaleBatcher with a linger that follows the flow (idleLingerMs set)', () => {
  beforeEach(() => {
    jest.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    jest.useRealTimers();
  });
  const flushed = (persist: jest.Mock<(items: number[]) => Promise<void>>) =>
    persist.mock.calls.map(([items]) => items);

  it("sends an item that comes to an idle queue at the end of its turn, with that turn's items, waiting for no timer", async () => {
    const persist = jest.fn(async (_items: number[]) => {});
    const b = batcher(persist, { lingerMs: 10, idleLingerMs: 0 });
    const added = [b.add(1), b.add(2)];
    expect(persist).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(0);
    expect(flushed(persist)).toEqual([[1, 2]]);
    await Promise.all(added);
  });

  it(`lets the first item of a batch wait for about ${COMPANY} more at the pace of those before it`, async () => {
    const persist = jest.fn(async (_items: number[]) => {});
    const b = batcher(persist, { lingerMs: 1_000, idleLingerMs: 0 });
    const added = [b.add(1)];
    await jest.advanceTimersByTimeAsync(20);
    // 20 ms after the last one: a steady flow, so this one waits COMPANY × 20 ms for company.
    added.push(b.add(2));
    await jest.advanceTimersByTimeAsync(COMPANY * 20 - 1);
    added.push(b.add(3));
    expect(flushed(persist)).toEqual([[1]]);
    await jest.advanceTimersByTimeAsync(1);
    expect(flushed(persist)).toEqual([[1], [2, 3]]);
    await Promise.all(added);
  });

  it('waits no longer than lingerMs, however slow the pace', async () => {
    const persist = jest.fn(async (_items: number[]) => {});
    const b = batcher(persist, { lingerMs: 100, idleLingerMs: 0 });
    const added = [b.add(1)];
    await jest.advanceTimersByTimeAsync(60);
    added.push(b.add(2));
    await jest.advanceTimersByTimeAsync(99);
    expect(flushed(persist)).toEqual([[1]]);
    await jest.advanceTimersByTimeAsync(1);
    expect(flushed(persist)).toEqual([[1], [2]]);
    await Promise.all(added);
  });

  it('counts a gap of lingerMs as a quiet spell: the next item leaves at once again', async () => {
    const persist = jest.fn(async (_items: number[]) => {});
    const b = batcher(persist, { lingerMs: 30, idleLingerMs: 0 });
    const added = [b.add(1)];
    await jest.advanceTimersByTimeAsync(30);
    added.push(b.add(2));
    await jest.advanceTimersByTimeAsync(0);
    expect(flushed(persist)).toEqual([[1], [2]]);
    await Promise.all(added);
  });
});
