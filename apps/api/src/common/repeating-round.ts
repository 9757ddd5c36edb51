/**
 * A round of work repeated `everyMs` after the previous one ends (never two at once): the loop of the outbox
 * dispatchers (docs/alarms.md, "The outbox"; docs/mobile-money.md) and of the hourly partition jobs. `stop()`
 * waits for the round in progress, so that it can still record what it did before the database connection closes.
 */
export class RepeatingRound {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopping = false;

  constructor(
    private readonly everyMs: number,
    private readonly round: () => Promise<void>,
    private readonly onError: (error: Error) => void,
  ) {}

  /** True once `stop()` was called: a long round checks it between steps. */
  get stopped(): boolean {
    return this.stopping;
  }

  /** The first round `everyMs` from now. */
  start(): void {
    if (this.stopping) return;
    this.timer = setTimeout(() => this.runRound(), this.everyMs);
  }

  /** The first round at once (the partition jobs: their months and days are due at start). */
  startNow(): void {
    if (this.stopping) return;
    this.runRound();
  }

  private runRound(): void {
    this.running = this.round()
      .catch((error: Error) => this.onError(error))
      .finally(() => this.start());
  }

  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /**
   * Runs `write` until it succeeds, waiting 100 ms doubling to 2 s between tries, while the rounds run and
   * a next try would start before `deadline`; each failure goes to `onError`. A dispatcher records a
   * send's outcome this way: the outcome is known now and would be lost with the error, and unrecorded
   * it would count as a crash at the end of the lease (docs/alarms.md, "What is guaranteed when a
   * process dies").
   */
  async retry<T>(deadline: number, write: () => Promise<T>): Promise<T> {
    for (let delay = RETRY_FIRST_MS; ; delay = Math.min(delay * 2, RETRY_MAX_MS)) {
      try {
        return await write();
      } catch (error) {
        if (this.stopping || Date.now() + delay >= deadline) throw error;
        this.onError(error as Error);
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }
}

const RETRY_FIRST_MS = 100;
const RETRY_MAX_MS = 2_000;

/**
 * A warning logged at most once per `everyMs`: a dispatcher whose server or database is down would
 * otherwise write the same line every round.
 */
export class ThrottledWarning {
  private loggedAt = 0;

  constructor(
    private readonly warn: (message: string) => void,
    private readonly everyMs = 10_000,
  ) {}

  log(message: string): void {
    if (Date.now() - this.loggedAt < this.everyMs) return;
    this.loggedAt = Date.now();
    this.warn(message);
  }
}
