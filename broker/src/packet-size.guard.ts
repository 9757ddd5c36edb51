/**
 * Drops a connection as soon as a packet's fixed header announces more bytes than the broker accepts.
 *
 * `authorizePublish` refuses big payloads too, but only after mqtt-packet has buffered the whole
 * packet, and MQTT allows 256 MB: without this guard one socket could make the process buffer that
 * much per connection. Aedes has no option for it, so this wraps the length step of the client's
 * mqtt-packet parser. Both are internals: when they are not found, the guard is skipped (and
 * reported), and the `authorizePublish` check still holds.
 */
import type { Client } from 'aedes';

interface ParserInternals {
  packet?: { length: number };
  _parseLength?: () => boolean;
  _emitError?: (error: Error) => void;
}

/** Returns false when the parser internals were not found and the guard is not installed. */
export function guardPacketSize(client: Client, maxPacketBytes: number, refuse: (length: number) => Error): boolean {
  const parser = (client as unknown as { _parser?: ParserInternals })._parser;
  const parseLength = parser?._parseLength;
  if (!parser || typeof parseLength !== 'function' || typeof parser._emitError !== 'function') return false;
  parser._parseLength = function guardedParseLength(this: ParserInternals): boolean {
    const complete = parseLength.call(this);
    const length = this.packet?.length ?? 0;
    if (complete && length > maxPacketBytes) {
      // Stops the parse loop; Aedes turns the parser error into a closed connection.
      this._emitError?.(refuse(length));
      return false;
    }
    return complete;
  };
  return true;
}
