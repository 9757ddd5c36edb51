/**
 * A round of work repeated `everyMs` after the previous one ends (never two at once): the loop of the outbox
 * dispatchers (docs/alarms.md, "The outbox"; docs/mobile-money.md). `stop()` waits for the round in progress, so that
 * it can still record what it did before the database connection closes.
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

  start(): void {
    if (this.stopping) return;
    this.timer = setTimeout(() => {
      this.running = this.round()
        .catch((error: Error) => this.onError(error))
        .finally(() => this.start());
    }, this.everyMs);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    await this.running;
  }
}
