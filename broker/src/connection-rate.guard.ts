/**
 * Counts new connections per address in one-second windows, so that one misbehaving host (or a
 * reconnect loop in faulty firmware) cannot exhaust the broker's accept and auth work.
 */
export class ConnectionRateGuard {
  private window = 0;
  private counts = new Map<string, number>();

  constructor(private readonly perSecond: number) {}

  /** True when a connection from `address` may proceed. */
  admit(address: string | undefined, now = Date.now()): boolean {
    if (this.perSecond <= 0 || !address) return true;
    const second = Math.floor(now / 1000);
    if (second !== this.window) {
      this.window = second;
      this.counts = new Map();
    }
    const count = (this.counts.get(address) ?? 0) + 1;
    this.counts.set(address, count);
    return count <= this.perSecond;
  }
}
