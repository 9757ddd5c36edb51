/**
 * Whether a sales payload carries sales made offline (`offline: true`, docs/device-protocol.md, "Sequence numbers"):
 * a machine's backlog. Only a look at the text, so that neither the broker nor the queue parses a payload (the worker
 * validates it); a wrong guess changes only which sales wait first, never what is stored (docs/architecture.md,
 * "Backfill and live sales").
 */
export function carriesOfflineSales(payload: string | Buffer): boolean {
  // Most payloads are live sales: a byte search rules them out before any text is made.
  if (payload.indexOf('"offline"') < 0) return false;
  return /"offline"\s*:\s*true/.test(typeof payload === 'string' ? payload : payload.toString('utf8'));
}
