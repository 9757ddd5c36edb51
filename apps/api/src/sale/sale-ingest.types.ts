import { isUtf8 } from 'node:buffer';

/** One delivery of a machine's sales payload, raw, as the broker or the REST endpoint received it. */
export interface RawSalesMessage {
  espId: string;
  topic: string;
  /** The payload as UTF-8 text (invalid bytes are kept as base64 with a `base64:` prefix). */
  payload: string;
  receivedAt: string;
  source: 'mqtt' | 'rest';
}

export interface SalesIngestJob {
  messages: RawSalesMessage[];
}

/**
 * Decodes a payload for storage without losing bytes that are not UTF-8, nor NUL bytes, which are
 * UTF-8 but which PostgreSQL text cannot store (no JSON payload holds one unescaped).
 */
export function payloadToText(payload: Buffer): string {
  if (!isUtf8(payload) || payload.includes(0)) return `base64:${payload.toString('base64')}`;
  return payload.toString('utf8');
}
