/**
 * Coalesces per-machine work into batches, so that a reconnect storm of thousands of machines costs a
 * few statements instead of a few per machine (docs/architecture.md, "Connections"). `add(key, value)`
 * keeps one entry per key (`merge` combines a waiting value with a newer one; by default the newer
 * wins), and `run` receives everything added within `lingerMs`, or at once when `maxBatch` keys wait.
 * One batch runs at a time. The promise of `add` settles with the batch that carried its key.
 *
 * With `retryMs`, a failed batch is not dropped: its entries wait again (behind any newer value for
 * the same key) and are retried after `retryMs`, doubling up to 30 s, while the promises of that
 * batch reject at once so that callers can log the failure.
 */
export interface KeyedBatchOptions<V> {
  lingerMs: number;
  maxBatch: number;
  merge?: (waiting: V, next: V) => V;
  retryMs?: number;
}

interface Entry<V, R> {
  value: V;
  waiters: { resolve: (result: R | undefined) => void; reject: (error: unknown) => void }[];
}

export class KeyedBatch<K, V, R = void> {
  private pending = new Map<K, Entry<V, R>>();
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private backoffMs = 0;

  constructor(
    private readonly run: (batch: Map<K, V>) => Promise<Map<K, R> | void>,
    private readonly options: KeyedBatchOptions<V>,
  ) {}

  /** Keys waiting for a batch. */
  get size(): number {
    return this.pending.size;
  }

  add(key: K, value: V): Promise<R | undefined> {
    return new Promise((resolve, reject) => {
      const entry = this.pending.get(key);
      if (entry) {
        entry.value = this.options.merge ? this.options.merge(entry.value, value) : value;
        entry.waiters.push({ resolve, reject });
      } else {
        this.pending.set(key, { value, waiters: [{ resolve, reject }] });
      }
      this.schedule();
    });
  }

  /** Runs what waits now and waits for it; a failure is not retried (the process is stopping). */
  async drain(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.backoffMs = 0;
    while (this.running) await new Promise((resolve) => setTimeout(resolve, 5));
    while (this.pending.size > 0) {
      await this.flush();
      if (this.backoffMs > 0) return;
    }
  }

  /** Stops the timer; what waits is dropped with its promises left pending (the process is stopping). */
  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending.clear();
  }

  private schedule(): void {
    if (this.running || this.pending.size === 0) return;
    if (this.pending.size >= this.options.maxBatch && this.backoffMs === 0) {
      clearTimeout(this.timer);
      this.timer = undefined;
      void this.flush();
      return;
    }
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.backoffMs || this.options.lingerMs);
  }

  private async flush(): Promise<void> {
    if (this.running || this.pending.size === 0) return;
    this.running = true;
    const taken = new Map<K, Entry<V, R>>();
    for (const [key, entry] of this.pending) {
      taken.set(key, entry);
      this.pending.delete(key);
      if (taken.size === this.options.maxBatch) break;
    }
    try {
      const results = await this.run(new Map([...taken].map(([key, entry]) => [key, entry.value])));
      this.backoffMs = 0;
      for (const [key, entry] of taken) for (const w of entry.waiters) w.resolve(results?.get(key));
    } catch (error) {
      for (const entry of taken.values()) for (const w of entry.waiters) w.reject(error);
      if (this.options.retryMs !== undefined) {
        this.backoffMs = Math.min(30_000, this.backoffMs ? this.backoffMs * 2 : this.options.retryMs);
        // A newer value for the same key supersedes the failed one.
        for (const [key, entry] of taken) {
          if (!this.pending.has(key)) this.pending.set(key, { value: entry.value, waiters: [] });
        }
      }
    } finally {
      this.running = false;
      this.schedule();
    }
  }
}

/**
 * How long work set off by a machine's connection waits for the same work of other machines (status, connect effects,
 * card list acknowledgements, queued counts, offline alarms). In a reconnect storm of 20,000 machines at 500/s, 25 ms
 * made statements of 9 to 20 machines each; 100 ms makes them about three times as large (25 to 54), and a machine's
 * status reaches the dashboard a tenth of a second later (docs/performance.md, "Reconnect storms").
 */
export const CONNECTION_WORK_LINGER_MS = 100;
