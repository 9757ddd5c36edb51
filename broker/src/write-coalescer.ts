/**
 * One socket write per connection per turn of the event loop.
 *
 * mqtt-packet corks a stream for each packet it writes and uncorks it on the next tick, so packets
 * written in the same tick leave together. Aedes answers a connection's packets in separate ticks
 * (each waits for its own hook or persistence callback), so a reconnecting machine's CONNACK, SUBACK
 * and PUBACKs each cost a system call on the broker and a wake-up of the machine's side. Holding the
 * stream corked until the event loop's check phase (setImmediate) sends everything answered in that
 * turn in one write, in the order it was written; a turn's answers leave at most that turn later
 * (docs/performance.md, "Reconnect storms").
 */
import type { Duplex } from 'node:stream';

export function coalesceWrites(stream: Duplex): void {
  const cork = stream.cork.bind(stream);
  let held = false;
  const release = () => {
    held = false;
    stream.uncork();
  };
  stream.cork = () => {
    cork();
    if (held || stream.destroyed) return;
    held = true;
    cork();
    setImmediate(release);
  };
}
