import {
  buildCardsDeltaTopic,
  buildCardsTopic,
  buildConfigTopic,
  buildSalesAckTopic,
  cardListDeltaPayloadSchema,
  cardListPayloadSchema,
  configPayloadSchema,
  salesAckPayloadSchema,
  type CardListDeltaPayload,
  type CardListPayload,
  type ConfigPayload,
} from '@wv/contracts';

export type InboundMessage =
  | { kind: 'sales-ack'; eventIds: string[] }
  | { kind: 'config'; config: ConfigPayload }
  | { kind: 'cards'; list: CardListPayload }
  | { kind: 'cards-delta'; delta: CardListDeltaPayload }
  | { kind: 'invalid'; reason: string }
  | { kind: 'ignored' };

/** Turns a parsed payload into its message. */
type Reader = (body: unknown, topic: string) => InboundMessage;

/** The part of a zod schema used here (zod is the contracts' dependency, not the simulator's). */
interface Schema<T> {
  safeParse(body: unknown): { success: true; data: T } | { success: false; error: { issues: { message: string }[] } };
}

function reader<T>(schema: Schema<T>, wrap: (data: T) => InboundMessage): Reader {
  return (body, topic) => {
    const parsed = schema.safeParse(body);
    return parsed.success
      ? wrap(parsed.data)
      : { kind: 'invalid', reason: `${topic}: ${parsed.error.issues[0]?.message}` };
  };
}

/** Reads what the server sends a machine (sales/ack, config, card lists), validated by the shared schemas. */
export function parseInboundMessage(espId: string, topic: string, payload: Buffer): InboundMessage {
  const readers: Record<string, Reader> = {
    [buildSalesAckTopic(espId)]: reader(salesAckPayloadSchema, (ack) => ({
      kind: 'sales-ack',
      eventIds: ack.eventIds,
    })),
    [buildConfigTopic(espId)]: reader(configPayloadSchema, (config) => ({ kind: 'config', config })),
    [buildCardsTopic(espId)]: reader(cardListPayloadSchema, (list) => ({ kind: 'cards', list })),
    [buildCardsDeltaTopic(espId)]: reader(cardListDeltaPayloadSchema, (delta) => ({ kind: 'cards-delta', delta })),
  };
  const read = readers[topic];
  // An empty payload is a cleared retained message: firmware has nothing to apply.
  if (!read || payload.length === 0) return { kind: 'ignored' };
  let body: unknown;
  try {
    body = JSON.parse(payload.toString('utf8'));
  } catch {
    return { kind: 'invalid', reason: `${topic}: not JSON` };
  }
  return read(body, topic);
}
