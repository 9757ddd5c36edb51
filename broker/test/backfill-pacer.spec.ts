import { describe, expect, it } from '@jest/globals';
import { BackfillPacer, DEFAULT_BACKFILL_PACING } from '../src/backfill-pacer.js';
import { SaleLanes } from '../src/sale-lanes.js';

/** A clock the test moves, and a sleep that records its pauses and passes the time they ask for. */
function fakeClock() {
  const clock = { now: 0, pauses: [] as number[] };
  return {
    clock,
    options: {
      now: () => clock.now,
      sleep: (ms: number) => {
        clock.pauses.push(ms);
        clock.now += ms;
        return Promise.resolve();
      },
    },
  };
}

/** A pacer on a fake clock. */
function pacerOnFakeClock(overrides: Partial<typeof DEFAULT_BACKFILL_PACING> = {}) {
  const { clock, options } = fakeClock();
  const pacer = new BackfillPacer({ ...DEFAULT_BACKFILL_PACING, ...overrides, ...options });
  return { pacer, pauses: clock.pauses, advance: (ms: number) => (clock.now += ms) };
}

const { windowMs, targetMs, minBytesPerSecond } = DEFAULT_BACKFILL_PACING;

/** Thirty windows in which every live flush waited five times the target: the pacer is at its floor after them. */
function slowWindows(pacer: BackfillPacer, advance: (ms: number) => void): void {
  for (let w = 0; w < 30; w++) {
    pacer.observeLive(targetMs * 5);
    advance(windowMs);
  }
}

describe('BackfillPacer', () => {
  it('lets a backlog alone go unpaced, with no live sales at all', async () => {
    const { pacer, pauses, advance } = pacerOnFakeClock();
    for (let i = 0; i < 20; i++) {
      await pacer.admit(1_000_000);
      advance(windowMs / 4);
    }
    expect(pauses).toEqual([]);
    expect(pacer.bytesPerSecond).toBe(Infinity);
  });

  it('starts a backlog beside live sales at its start rate, and grows it to unpaced while they are served in time', async () => {
    const { pacer, pauses, advance } = pacerOnFakeClock();
    pacer.observeLive(targetMs / 2);
    advance(windowMs);
    // Two flushes of a tenth of a second at the start rate: the second waits for the first.
    await pacer.admit(DEFAULT_BACKFILL_PACING.startBytesPerSecond / 10);
    await pacer.admit(DEFAULT_BACKFILL_PACING.startBytesPerSecond / 10);
    expect(pacer.bytesPerSecond).toBe(DEFAULT_BACKFILL_PACING.startBytesPerSecond);
    expect(pauses).toHaveLength(1);
    expect(pauses[0]).toBeCloseTo(100);
    let windows = 0;
    while (pacer.bytesPerSecond !== Infinity && windows < 100) {
      pacer.observeLive(targetMs / 2);
      await pacer.admit(1);
      advance(windowMs);
      windows++;
    }
    // Half again per window, from the start rate to past the ceiling.
    expect(pacer.bytesPerSecond).toBe(Infinity);
    expect(windows).toBeLessThan(20);
    // Unpaced now, and a backlog that goes on is not started again.
    const before = pauses.length;
    for (let i = 0; i < 8; i++) {
      pacer.observeLive(targetMs / 2);
      await pacer.admit(1_000_000);
      advance(windowMs / 4);
    }
    expect(pauses).toHaveLength(before);
    // After a quiet while, the next backlog starts slow again.
    pacer.observeLive(targetMs / 2);
    advance(DEFAULT_BACKFILL_PACING.idleMs + 1);
    pacer.observeLive(targetMs / 2);
    await pacer.admit(1);
    expect(pacer.bytesPerSecond).toBe(DEFAULT_BACKFILL_PACING.startBytesPerSecond);
  });

  it('halves the backlog to half of what it got once live sales wait too long, and holds its flushes to that rate', async () => {
    const { pacer, pauses, advance } = pacerOnFakeClock();
    // One window: the backlog took 400 KB while every live flush waited past the target.
    for (let i = 0; i < 4; i++) {
      await pacer.admit(100_000);
      pacer.observeLive(targetMs * 3);
      advance(windowMs / 4);
    }
    expect(pacer.bytesPerSecond).toBeCloseTo(((400_000 / windowMs) * 1000) / 2);
    const rate = pacer.bytesPerSecond;
    // Two flushes of 100 KB at that rate: the second starts 100 KB / rate later.
    await pacer.admit(100_000);
    await pacer.admit(100_000);
    expect(pauses).toHaveLength(1);
    expect(pauses[0]).toBeCloseTo((100_000 / rate) * 1000);
  });

  it('ignores a lone slow flush (a GC pause) among many in time', () => {
    const { pacer, advance } = pacerOnFakeClock();
    void pacer.admit(100_000);
    pacer.observeLive(targetMs * 10);
    for (let i = 0; i < 40; i++) pacer.observeLive(1);
    advance(windowMs);
    expect(pacer.bytesPerSecond).toBe(Infinity);
  });

  it('never goes below its floor, never pauses longer than its bound, and recovers to unpaced once live sales are fine', async () => {
    const { pacer, pauses, advance } = pacerOnFakeClock();
    slowWindows(pacer, advance);
    expect(pacer.bytesPerSecond).toBe(minBytesPerSecond);
    await pacer.admit(10 * minBytesPerSecond);
    await pacer.admit(10 * minBytesPerSecond);
    expect(Math.max(...pauses)).toBe(DEFAULT_BACKFILL_PACING.maxPauseMs);
    for (let w = 0; w < 30 && pacer.bytesPerSecond !== Infinity; w++) {
      pacer.observeLive(1);
      advance(windowMs);
    }
    expect(pacer.bytesPerSecond).toBe(Infinity);
  });

  it('stops pausing once stopped (a closing broker flushes what it holds)', async () => {
    const { pacer, pauses, advance } = pacerOnFakeClock();
    slowWindows(pacer, advance);
    pacer.stop();
    await pacer.admit(10 * minBytesPerSecond);
    await pacer.admit(10 * minBytesPerSecond);
    expect(pauses).toEqual([]);
  });
});

describe('SaleLanes with pacing', () => {
  it('feeds the live lane waits to the pacer and holds only backlog flushes', async () => {
    const { clock, options: clockOptions } = fakeClock();
    const pauses = clock.pauses;
    const flushed: string[][] = [];
    const persist = async (batch: { id: string; offline: boolean }[]) => {
      flushed.push(batch.map((i) => i.id));
      // A live flush that takes three times the target: its sale waited too long, however busy the machine.
      if (!batch[0]!.offline) await new Promise((r) => setTimeout(r, targetMs * 3));
    };
    const lanes = new SaleLanes({ persist, maxBatch: 1, lingerMs: 0, maxInFlight: 1, timeoutMs: 0 }, (i) => i.offline, {
      options: { ...DEFAULT_BACKFILL_PACING, ...clockOptions },
      weigh: () => minBytesPerSecond / 10,
    });
    await lanes.add({ id: 'l0', offline: false });
    expect(pauses).toEqual([]);
    clock.now += windowMs;
    // The window held one slow live flush and no backlog: the backlog starts at the floor, a tenth of a second each.
    await Promise.all(Array.from({ length: 5 }, (_, i) => lanes.add({ id: `b${i}`, offline: true })));
    expect(lanes.pacer!.bytesPerSecond).toBe(minBytesPerSecond);
    expect(pauses.length).toBeGreaterThanOrEqual(3);
    for (const pause of pauses) expect(pause).toBeCloseTo(100);
    // A live sale is never paced, even now.
    const before = pauses.length;
    await lanes.add({ id: 'l1', offline: false });
    expect(pauses.length).toBe(before);
    expect(flushed.flat().sort()).toEqual(['b0', 'b1', 'b2', 'b3', 'b4', 'l0', 'l1']);
  });
});
