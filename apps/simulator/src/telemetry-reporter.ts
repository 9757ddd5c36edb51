/**
 * Sends a machine's telemetry every `intervalMs`, the first one at a random phase within the
 * interval so that a fleet started together does not report in lock step. `send` decides what to do
 * while the machine is offline (a reading is a snapshot: firmware drops it rather than queue it).
 */
export class TelemetryReporter {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly intervalMs: number,
    private readonly send: () => void,
    private readonly phase: () => number = Math.random,
  ) {}

  get enabled(): boolean {
    return this.intervalMs > 0;
  }

  start(): void {
    if (!this.enabled || this.timer) return;
    this.schedule(this.phase() * this.intervalMs);
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => {
      this.send();
      if (this.timer) this.schedule(this.intervalMs);
    }, delayMs);
  }
}
