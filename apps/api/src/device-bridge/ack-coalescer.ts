/**
 * Merges the `sales/ack` messages bound for one machine that arrive within `lingerMs`. Workers
 * acknowledge per batch, and a machine selling fast appears in every batch, which made one ack
 * message (and one PUBACK back from the machine) per sale. A message carries at most `maxIds` ids,
 * so a machine's receive buffer bounds what it is sent. An ack lost in a crash costs nothing: the
 * machine sends the sale again and it is stored once and acknowledged again.
 */
export class AckCoalescer {
  private pending = new Map<string, Set<string>>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly send: (topic: string, payload: string) => void,
    private readonly lingerMs = 20,
    private readonly maxIds = 100,
  ) {}

  add(topic: string, eventIds: readonly string[]): void {
    let ids = this.pending.get(topic);
    if (!ids) this.pending.set(topic, (ids = new Set()));
    for (const id of eventIds) ids.add(id);
    this.timer ??= setTimeout(() => this.flush(), this.lingerMs);
  }

  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const pending = this.pending;
    this.pending = new Map();
    for (const [topic, set] of pending) {
      const ids = [...set];
      for (let i = 0; i < ids.length; i += this.maxIds) {
        this.send(topic, JSON.stringify({ eventIds: ids.slice(i, i + this.maxIds) }));
      }
    }
  }
}
