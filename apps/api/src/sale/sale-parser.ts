import { saleSchema, saleTimeProblem, type Sale } from '@wv/contracts';
import type { z } from 'zod';
import { escapeNul, jsonTextTooDeep, MAX_JSON_DEPTH } from '../common/json-limits.js';

export interface ParsedSale extends Sale {
  espId: string;
  soldAt: Date;
}

export interface Rejection {
  /** Index in the array payload, or null for the payload as a whole. */
  index: number | null;
  reason: string;
  /** The offending part of the payload, as text. */
  raw: string;
  /** An eventId we could read, so the machine can still be told to forget the item. */
  eventId?: string;
}

const MAX_ITEMS = 1000;

function describe(error: z.ZodError): string {
  // Unknown keys are quoted in the reason, and PostgreSQL text cannot hold U+0000.
  return escapeNul(
    error.issues
      .map((i) => {
        if (i.code === 'unrecognized_keys') return `unknown field ${i.keys.join(', ')}`;
        return i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message;
      })
      .join('; '),
  );
}

function readableEventId(item: unknown): string | undefined {
  const id = (item as { eventId?: unknown } | null)?.eventId;
  return typeof id === 'string' && id.length > 0 && id.length <= 64 ? id : undefined;
}

/**
 * The sale with its machine and time. Copied field by field: the schema's outputs differ in shape (optional fields
 * present or not), and an object spread of them took the generic slow path, 4 µs a sale, a sixth of a worker's CPU
 * per sale at saturation (docs/performance.md, "The parser's copy of a sale"). Every field of the schema must be
 * named here: the type below fails to compile when one is missing.
 */
function parsedSale(data: Sale, espId: string, receivedAt: Date): ParsedSale {
  const sale: { [K in keyof Required<ParsedSale>]: ParsedSale[K] } = {
    eventId: data.eventId,
    kind: data.kind,
    price: data.price,
    volume: data.volume,
    waterType: data.waterType,
    cardId: data.cardId,
    time: data.time,
    seq: data.seq,
    offline: data.offline,
    dispensed: data.dispensed,
    espId,
    soldAt: data.time ? new Date(data.time) : receivedAt,
  };
  return sale;
}

/**
 * Validates one delivery of a machine's sales payload (one sale or an array of sales) with the
 * contracts' schema and the time window. Every bad item is returned with its reason, never dropped.
 */
export function parseSalesPayload(
  espId: string,
  text: string,
  receivedAt: Date,
): { sales: ParsedSale[]; rejections: Rejection[] } {
  if (text.startsWith('base64:'))
    return {
      sales: [],
      rejections: [{ index: null, reason: 'payload is not UTF-8 text without NUL bytes', raw: text }],
    };
  // Checked on the text: a deep payload parses, but walking it (the schema, JSON.stringify of an
  // item) overflows the stack and would fail the whole batch of other machines' sales.
  if (jsonTextTooDeep(text)) {
    const reason = `payload is nested more than ${MAX_JSON_DEPTH} levels deep`;
    return { sales: [], rejections: [{ index: null, reason, raw: text }] };
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { sales: [], rejections: [{ index: null, reason: 'payload is not valid JSON', raw: text }] };
  }
  const isArray = Array.isArray(body);
  const items: unknown[] = isArray ? (body as unknown[]) : [body];
  if (isArray && items.length === 0)
    return { sales: [], rejections: [{ index: null, reason: 'payload is an empty array', raw: text }] };
  if (isArray && items.length > MAX_ITEMS) {
    return { sales: [], rejections: [{ index: null, reason: `payload has more than ${MAX_ITEMS} sales`, raw: text }] };
  }
  const sales: ParsedSale[] = [];
  const rejections: Rejection[] = [];
  items.forEach((item, i) => {
    const index = isArray ? i : null;
    const result = saleSchema.safeParse(item);
    // Only a rejected item needs its text: a backlog of arrays stringified every valid sale again.
    const raw = () => (isArray ? JSON.stringify(item) : text);
    if (!result.success) {
      rejections.push({ index, reason: describe(result.error), raw: raw(), eventId: readableEventId(item) });
      return;
    }
    const problem = saleTimeProblem(result.data, receivedAt);
    if (problem) {
      rejections.push({ index, reason: problem, raw: raw(), eventId: result.data.eventId });
      return;
    }
    sales.push(parsedSale(result.data, espId, receivedAt));
  });
  return { sales, rejections };
}
