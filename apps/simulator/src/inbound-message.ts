import {
  buildConfigTopic,
  buildSalesAckTopic,
  configPayloadSchema,
  salesAckPayloadSchema,
  type ConfigPayload,
} from '@wv/contracts';

export type InboundMessage =
  | { kind: 'sales-ack'; eventIds: string[] }
  | { kind: 'config'; config: ConfigPayload }
  | { kind: 'invalid'; reason: string }
  | { kind: 'ignored' };

/** Reads what the server sends a machine (sales/ack and config), validated by the shared schemas. */
export function parseInboundMessage(espId: string, topic: string, payload: Buffer): InboundMessage {
  const schema =
    topic === buildSalesAckTopic(espId)
      ? salesAckPayloadSchema
      : topic === buildConfigTopic(espId)
        ? configPayloadSchema
        : null;
  // An empty payload is a cleared retained message: firmware has nothing to apply.
  if (!schema || payload.length === 0) return { kind: 'ignored' };
  let body: unknown;
  try {
    body = JSON.parse(payload.toString('utf8'));
  } catch {
    return { kind: 'invalid', reason: `${topic}: not JSON` };
  }
  if (schema === salesAckPayloadSchema) {
    const ack = salesAckPayloadSchema.safeParse(body);
    return ack.success
      ? { kind: 'sales-ack', eventIds: ack.data.eventIds }
      : { kind: 'invalid', reason: `${topic}: ${ack.error.issues[0]?.message}` };
  }
  const config = configPayloadSchema.safeParse(body);
  return config.success
    ? { kind: 'config', config: config.data }
    : { kind: 'invalid', reason: `${topic}: ${config.error.issues[0]?.message}` };
}
