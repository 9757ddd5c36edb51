const WINDOW_MS = 1000;

/**
 * Admits at most `perSecond` new connections per address in any one second (a sliding window,
 * not calendar seconds), so that one misbehaving host (or a reconnect loop in faulty firmware)
 * cannot exhaust the broker's accept and auth work. A fixed window would let twice the limit
 * through across a second's boundary and split a burst unpredictably; the sliding one gives
 * the same answer wherever the burst falls.
 *
 * Refused connections are not counted, so a host that keeps hammering still gets `perSecond`
 * connections through each second (its firmware's reconnect loop recovers once it slows down).
 */
export class ConnectionRateGuard {
  /** Times of the admitted connections of the last second, oldest first, per address. */
  private readonly admitted = new Map<string, number[]>();
  private lastSweep = 0;

  constructor(private readonly perSecond: number) {}

  /** True when a connection from `address` may proceed. */
  admit(address: string | undefined, now = Date.now()): boolean {
    if (this.perSecond <= 0 || !address) return true;
    this.sweep(now);
    const since = now - WINDOW_MS;
    let times = this.admitted.get(address);
    if (!times) {
      times = [];
      this.admitted.set(address, times);
    }
    while (times.length > 0 && times[0] <= since) times.shift();
    if (times.length >= this.perSecond) return false;
    times.push(now);
    return true;
  }

  /** Forgets addresses with no connection in the last second, at most once a second. */
  private sweep(now: number): void {
    if (now - this.lastSweep < WINDOW_MS) return;
    this.lastSweep = now;
    const since = now - WINDOW_MS;
    for (const [address, times] of this.admitted) {
      if (times.length === 0 || times[times.length - 1] <= since) this.admitted.delete(address);
    }
  }
}
