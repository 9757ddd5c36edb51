import { describe, expect, it } from '@jest/globals';
import { CATCH_UP, WorkerPriority } from './process-priority.js';

/**
 * A WorkerPriority over three fake threads and a clock the test moves. `refuse` makes a lower niceness fail as it
 * does without RLIMIT_NICE or CAP_SYS_NICE.
 */
function fakeProcess(start: number[] = [0, 0, 0], refuse = false) {
  const state = { now: 0, threads: [...start], calls: [] as number[] };
  const priority = new WorkerPriority(
    (niceness, needs) => {
      state.calls.push(niceness);
      let changed = 0;
      state.threads = state.threads.map((current) => {
        if (!needs(current)) return current;
        if (refuse && niceness < current)
          throw Object.assign(new Error('setpriority EACCES'), { info: { code: 'EACCES' } });
        changed++;
        return niceness;
      });
      return changed;
    },
    () => state.now,
    () => state.threads[0]!,
  );
  return { priority, state };
}

describe('WorkerPriority (docs/performance.md, "The worker yields")', () => {
  it('does nothing until started, and nothing with a niceness of 0', () => {
    const { priority, state } = fakeProcess();
    priority.observeCommit(60_000);
    expect(state.calls).toEqual([]);
    expect(priority.start(0)).toBe(0);
    priority.observeCommit(60_000);
    expect(state.calls).toEqual([]);
    expect(priority.catchingUp).toBe(false);
  });

  it('yields at WORKER_NICE, every thread, and leaves a thread started nicer alone', () => {
    const { priority, state } = fakeProcess([0, 0, 15]);
    expect(priority.start(10)).toBe(2);
    expect(state.threads).toEqual([10, 10, 15]);
  });

  it('yields, after catching up, at the niceness it was started at when that is higher', () => {
    const { priority, state } = fakeProcess([15, 15, 15]);
    expect(priority.start(10)).toBe(0);
    priority.observeCommit(CATCH_UP.behindMs * 2);
    expect(state.threads).toEqual([0, 0, 0]);
    priority.observeCommit(0);
    state.now += CATCH_UP.holdMs;
    priority.observeCommit(0);
    expect(state.threads).toEqual([15, 15, 15]);
  });

  it('stays niced while live jobs commit within a second of being queued', () => {
    const { priority, state } = fakeProcess();
    priority.start(10);
    for (const lag of [5, 80, 400, CATCH_UP.behindMs]) priority.observeCommit(lag);
    expect(priority.catchingUp).toBe(false);
    expect(state.threads).toEqual([10, 10, 10]);
  });

  it('takes its priority back once behind, and yields again only after staying caught up for holdMs', () => {
    const { priority, state } = fakeProcess();
    priority.start(10);
    priority.observeCommit(CATCH_UP.behindMs + 1);
    expect(priority.catchingUp).toBe(true);
    expect(state.threads).toEqual([0, 0, 0]);
    // Caught up for a while, then a commit in between the bounds: the calm spell starts again.
    priority.observeCommit(10);
    state.now += CATCH_UP.holdMs - 1;
    priority.observeCommit(10);
    priority.observeCommit(CATCH_UP.caughtUpMs + 1);
    state.now += 1_000;
    priority.observeCommit(10);
    state.now += CATCH_UP.holdMs - 1;
    priority.observeCommit(10);
    expect(priority.catchingUp).toBe(true);
    expect(state.threads).toEqual([0, 0, 0]);
    state.now += 1;
    priority.observeCommit(10);
    expect(priority.catchingUp).toBe(false);
    expect(state.threads).toEqual([10, 10, 10]);
    // And again, when it falls behind again.
    priority.observeCommit(CATCH_UP.behindMs * 5);
    expect(state.threads).toEqual([0, 0, 0]);
  });

  it('holds twice as long each time it falls behind again soon after yielding, and from 5 s again after a long calm', () => {
    const { priority, state } = fakeProcess();
    priority.start(10);
    /** Behind, then caught up for as long as the current hold: yielded again. */
    const episode = () => {
      priority.observeCommit(CATCH_UP.behindMs * 2);
      const hold = priority.currentHoldMs;
      priority.observeCommit(0);
      state.now += hold;
      priority.observeCommit(0);
      expect(priority.catchingUp).toBe(false);
      return hold;
    };
    expect(episode()).toBe(CATCH_UP.holdMs);
    state.now += CATCH_UP.relapseMs - 1;
    expect(episode()).toBe(CATCH_UP.holdMs * 2);
    state.now += 1_000;
    expect(episode()).toBe(CATCH_UP.holdMs * 4);
    for (let i = 0; i < 10; i++) episode();
    expect(priority.currentHoldMs).toBe(CATCH_UP.maxHoldMs);
    // Niced for longer than relapseMs without falling behind: the next hold is the first one again.
    state.now += CATCH_UP.relapseMs;
    expect(episode()).toBe(CATCH_UP.holdMs);
  });

  it('stays niced, and tries no more, where the system refuses a lower niceness', () => {
    const { priority, state } = fakeProcess([0, 0, 0], true);
    priority.start(10);
    priority.observeCommit(CATCH_UP.behindMs * 3);
    priority.observeCommit(CATCH_UP.behindMs * 3);
    expect(priority.catchingUp).toBe(false);
    expect(state.threads).toEqual([10, 10, 10]);
    // One start, one refused attempt.
    expect(state.calls).toEqual([10, 0]);
  });
});
