import { Logger } from '@nestjs/common';
import { readdirSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** The thread ids of this process (/proc/self/task); without /proc (not Linux), 0: the calling process. */
function threadsOfThisProcess(): number[] {
  try {
    return readdirSync('/proc/self/task').map(Number);
  } catch {
    return [0];
  }
}

/**
 * Sets every thread of this process that `needs` it to `niceness`. On Linux a niceness belongs to a thread, and
 * setpriority(2) on a process id changes its main thread alone, so every thread listed in /proc/self/task is set
 * (V8's and libuv's threads run before this; threads started later inherit the niceness of the thread that starts
 * them). Returns the threads changed; a thread that ended meanwhile is skipped. Throws when the system refuses the
 * first change (a lower niceness needs RLIMIT_NICE or CAP_SYS_NICE).
 */
export function setEveryThread(niceness: number, needs: (current: number) => boolean): number {
  let changed = 0;
  for (const thread of threadsOfThisProcess()) {
    let current: number;
    try {
      current = getPriority(thread);
    } catch {
      continue; // The thread ended between the listing and the call.
    }
    if (!needs(current)) continue;
    try {
      setPriority(thread, niceness);
      changed++;
    } catch (error) {
      if (changed === 0 && (error as { info?: { code?: string } }).info?.code !== 'ESRCH') throw error;
    }
  }
  return changed;
}

/** When a worker counts as behind, as caught up, and how long it must stay caught up to yield again. */
export const CATCH_UP = {
  /** A live sales job committed this long after it was queued: the worker takes its priority back. */
  behindMs: 1_000,
  /** Committed within this: caught up. */
  caughtUpMs: 250,
  /** Caught up this long without a break: it yields again. */
  holdMs: 5_000,
  /**
   * Behind again within this of yielding: the load outlasts the hold, which doubles for the next time (at most
   * `maxHoldMs`), so that a worker under a load that lasts does not fall a second behind every few seconds.
   */
  relapseMs: 60_000,
  maxHoldMs: 300_000,
} as const;

export type SetThreads = (niceness: number, needs: (current: number) => boolean) => number;

/**
 * The CPU priority of a worker-only process (docs/performance.md, "The worker takes its priority back"). It yields at
 * WORKER_NICE while it keeps up, so that a broker on the same host answers its machines first; once a live sales job
 * commits more than `CATCH_UP.behindMs` after it was queued, it runs at niceness 0 until its jobs have committed
 * within `CATCH_UP.caughtUpMs` for `CATCH_UP.holdMs`, a hold that doubles each time it falls behind again soon
 * after yielding (`CATCH_UP.relapseMs`) and starts again from 5 s once it yields for longer. A niced worker on a host
 * other busy programs share, or under more load than the host can take, would otherwise fall further behind for as
 * long as the load lasts. Taking a priority back needs RLIMIT_NICE of 20 or more (systemd `LimitNICE=0`, Docker
 * `--ulimit nice=20`) or CAP_SYS_NICE; without it the worker stays niced and says so once. Inactive (every call a
 * no-op) unless `start` was called: a process that also runs the broker, or an app started inside another program,
 * keeps its priority.
 */
export class WorkerPriority {
  private readonly logger = new Logger('WorkerPriority');
  /** The niceness it yields at; 0 while inactive. */
  private yieldAt = 0;
  private raised = false;
  private refused = false;
  private calmSince: number | null = null;
  /** How long it must stay caught up to yield again. */
  private holdMs: number = CATCH_UP.holdMs;
  /** When it last yielded after catching up; null before the first time. */
  private yieldedAt: number | null = null;

  constructor(
    private readonly setThreads: SetThreads = setEveryThread,
    private readonly now: () => number = () => performance.now(),
    private readonly startedAt: () => number = () => getPriority(),
  ) {}

  /** Yields at `niceness` (or the niceness it was started at, if higher) from now on; returns the threads changed. */
  start(niceness: number): number {
    if (niceness <= 0) return 0;
    this.yieldAt = Math.max(niceness, this.startedAt());
    const changed = this.setThreads(this.yieldAt, (current) => current < this.yieldAt);
    if (changed > 0) this.logger.log(`Running at CPU niceness ${this.yieldAt} (WORKER_NICE)`);
    return changed;
  }

  /** Whether it runs at niceness 0 now because it fell behind. */
  get catchingUp(): boolean {
    return this.raised;
  }

  /** How long it must stay caught up before it yields again (ms). */
  get currentHoldMs(): number {
    return this.holdMs;
  }

  /** A live sales job committed `lagMs` after it was queued. */
  observeCommit(lagMs: number): void {
    if (this.yieldAt === 0) return;
    if (!this.raised) {
      if (lagMs > CATCH_UP.behindMs && !this.refused) this.raise(lagMs);
      return;
    }
    if (lagMs > CATCH_UP.caughtUpMs) {
      this.calmSince = null;
      return;
    }
    this.calmSince ??= this.now();
    if (this.now() - this.calmSince < this.holdMs) return;
    this.setThreads(this.yieldAt, (current) => current < this.yieldAt);
    this.raised = false;
    this.calmSince = null;
    this.yieldedAt = this.now();
    this.logger.log(`Caught up for ${this.holdMs / 1000} s: back at CPU niceness ${this.yieldAt} (WORKER_NICE)`);
  }

  private raise(lagMs: number): void {
    const behind = `${(lagMs / 1000).toFixed(1)} s`;
    try {
      this.setThreads(0, (current) => current > 0);
    } catch (error) {
      this.refused = true;
      this.logger.warn(
        `Sales commit ${behind} after they are queued, and this process may not take its CPU priority back ` +
          `(${(error as Error).message}; it needs RLIMIT_NICE of 20, e.g. LimitNICE=0 in systemd or --ulimit nice=20 ` +
          `in Docker, or CAP_SYS_NICE): it stays at niceness ${this.yieldAt}. On a host that other busy programs ` +
          'share, set WORKER_NICE=0.',
      );
      return;
    }
    this.raised = true;
    this.calmSince = null;
    const relapse = this.yieldedAt !== null && this.now() - this.yieldedAt < CATCH_UP.relapseMs;
    this.holdMs = relapse ? Math.min(this.holdMs * 2, CATCH_UP.maxHoldMs) : CATCH_UP.holdMs;
    this.logger.log(
      `Sales commit ${behind} after they are queued: running at CPU niceness 0 until the worker has kept up for ` +
        `${this.holdMs / 1000} s`,
    );
  }
}
