/**
 * Counts wrong device keys per address. Every wrong key costs the API a key lookup; past the limit an
 * address is refused for the rest of its window without one, so guessing keys from one host stays slow
 * and cheap to answer. Only failures count: any number of machines with good keys may share an address
 * (a carrier's NAT, or a test fleet on 127.0.0.1).
 */
export class AuthFailureGuard {
  /** Entries kept at most; past this the oldest windows are forgotten first. */
  private static readonly MAX_ENTRIES = 100_000;
  private readonly entries = new Map<string, { count: number; until: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** True while `address` has used up its failures for the current window. */
  blocked(address: string | undefined, now = Date.now()): boolean {
    if (this.limit <= 0 || !address) return false;
    const entry = this.entries.get(address);
    if (!entry) return false;
    if (entry.until <= now) {
      this.entries.delete(address);
      return false;
    }
    return entry.count >= this.limit;
  }

  /** The window starts at the first failure and is not extended by later ones. */
  recordFailure(address: string | undefined, now = Date.now()): void {
    if (this.limit <= 0 || !address) return;
    const entry = this.entries.get(address);
    if (entry && entry.until > now) {
      entry.count++;
      return;
    }
    this.entries.delete(address);
    if (this.entries.size >= AuthFailureGuard.MAX_ENTRIES) this.prune(now);
    this.entries.set(address, { count: 1, until: now + this.windowMs });
  }

  private prune(now: number): void {
    for (const [address, entry] of this.entries) if (entry.until <= now) this.entries.delete(address);
    // Still full (many addresses failing at once): drop the oldest windows; they were started first.
    for (const address of this.entries.keys()) {
      if (this.entries.size < AuthFailureGuard.MAX_ENTRIES) break;
      this.entries.delete(address);
    }
  }
}
