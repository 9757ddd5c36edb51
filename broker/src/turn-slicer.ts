/**
 * Runs queued tasks a slice per turn of the event loop (docs/architecture.md, "Connections").
 *
 * The device keys of a reconnecting fleet are read for many connects at once, so hundreds of connects
 * become ready in the same turn. Each one then costs Aedes its session, its CONNACK write and its queue
 * of stored messages; run together, a thousand of them held the event loop for 40–50 ms at a time, and
 * the live sales of other machines waited behind them for their PUBACKs. In slices, the I/O of other
 * connections (sales arriving, Redis answering) is served between two slices.
 */
export class TurnSlicer {
  private queue: Array<() => void> = [];
  private head = 0;
  private scheduled = false;

  /** `onError`: what a task threw; the other tasks of its slice still run. */
  constructor(
    private readonly perTurn: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  get waiting(): number {
    return this.queue.length - this.head;
  }

  /** Runs `task` in a later turn, after the tasks queued before it. */
  push(task: () => void): void {
    this.queue.push(task);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.run);
    }
  }

  private readonly run = (): void => {
    const end = Math.min(this.queue.length, this.head + this.perTurn);
    const slice = this.queue.slice(this.head, end);
    this.head = end;
    if (this.head === this.queue.length) {
      this.queue = [];
      this.head = 0;
      this.scheduled = false;
    } else {
      // Scheduled from inside a setImmediate callback, this runs in the next turn, after its I/O.
      setImmediate(this.run);
    }
    for (const task of slice) {
      try {
        task();
      } catch (error) {
        this.onError(error);
      }
    }
  };
}
