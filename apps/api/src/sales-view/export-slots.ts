import { ErrorCode } from '@wv/contracts';
import { AppError } from '../common/app-error.js';

export interface ExportLimits {
  /** Exports running at once in this process: each holds a database connection and a worker thread. */
  slots: number;
  /** Exports one account may have running or waiting at once, so that no tenant can take every slot. */
  perAccount: number;
  /** Exports that may wait for a slot; more are refused at once rather than left hanging. */
  queue: number;
  /** How long an export may wait for a slot before it is refused. */
  maxWaitMs: number;
}

interface Waiter {
  admit(): void;
  leave(error: Error): void;
  timer: NodeJS.Timeout;
}

/** The client went away while its export waited for a slot: nothing to answer. */
export class ExportAbandoned extends Error {}

/**
 * The export slots of one process, shared fairly: at most `perAccount` exports per account (running
 * or waiting; 429 beyond), a bounded wait queue (503 with Retry-After when full, or when the wait
 * grows too long), and a waiting export whose client leaves gives its place up at once.
 */
export class ExportSlots {
  private running = 0;
  private readonly perAccount = new Map<string, number>();
  private readonly waiting: Waiter[] = [];

  constructor(private readonly limits: ExportLimits) {}

  get stats(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  /** Resolves with the slot's release once the export may run; refuses at once when over a bound. */
  async acquire(account: string, gone: AbortSignal): Promise<() => void> {
    if ((this.perAccount.get(account) ?? 0) >= this.limits.perAccount) {
      throw new AppError(
        ErrorCode.RateLimited,
        `At most ${this.limits.perAccount} exports at once per account; wait for one to finish`,
      );
    }
    if (this.running < this.limits.slots) {
      this.running++;
      this.count(account, +1);
      return this.releaser(account);
    }
    if (this.waiting.length >= this.limits.queue) throw busy();
    this.count(account, +1);
    await new Promise<void>((resolve, reject) => {
      const leave = (error: Error) => {
        const at = this.waiting.indexOf(waiter);
        if (at < 0) return; // admitted meanwhile
        this.waiting.splice(at, 1);
        clearTimeout(waiter.timer);
        gone.removeEventListener('abort', onGone);
        this.count(account, -1);
        reject(error);
      };
      const onGone = () => leave(new ExportAbandoned('The client went away while its export waited'));
      const waiter: Waiter = {
        admit: () => {
          gone.removeEventListener('abort', onGone);
          resolve();
        },
        leave,
        timer: setTimeout(() => leave(busy()), this.limits.maxWaitMs),
      };
      waiter.timer.unref();
      this.waiting.push(waiter);
      gone.addEventListener('abort', onGone, { once: true });
      if (gone.aborted) onGone();
    });
    return this.releaser(account);
  }

  /** The process is shutting down: every waiting export gives up (nothing is answered) and no timer is left behind. */
  close(): void {
    for (const waiter of [...this.waiting]) waiter.leave(new ExportAbandoned('The server is shutting down'));
  }

  private releaser(account: string): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.count(account, -1);
      // The slot goes straight to the next waiting export, if any.
      const next = this.waiting.shift();
      if (!next) {
        this.running--;
        return;
      }
      clearTimeout(next.timer);
      next.admit();
    };
  }

  private count(account: string, delta: number): void {
    const n = (this.perAccount.get(account) ?? 0) + delta;
    if (n > 0) this.perAccount.set(account, n);
    else this.perAccount.delete(account);
  }
}

/** 503 with Retry-After (RFC 9110 section 15.6.4): the same request may well succeed shortly. */
function busy(): AppError {
  return new AppError(ErrorCode.ServiceUnavailable, 'Too many exports are running or waiting; try again in a minute');
}
