/** MQTT topics of the device protocol (docs/device-protocol.md, "Topics"). Build topics only through these. */
export const TOPIC_ROOT = 'wv/v1';
export const PROVISION_USERNAME = 'provision';

export const buildHelloTopic = (macTopicId: string) => `${TOPIC_ROOT}/provision/${macTopicId}/hello`;
export const buildAssignmentTopic = (macTopicId: string) => `${TOPIC_ROOT}/provision/${macTopicId}/assignment`;
export const buildMachinePrefix = (espId: string) => `${TOPIC_ROOT}/machines/${espId}/`;
export const buildSalesTopic = (espId: string) => `${TOPIC_ROOT}/machines/${espId}/sales`;
export const buildSalesAckTopic = (espId: string) => `${TOPIC_ROOT}/machines/${espId}/sales/ack`;
export const buildStatusTopic = (espId: string) => `${TOPIC_ROOT}/machines/${espId}/status`;
export const buildConfigTopic = (espId: string) => `${TOPIC_ROOT}/machines/${espId}/config`;
export const buildConfigAckTopic = (espId: string) => `${TOPIC_ROOT}/machines/${espId}/config/ack`;
export const buildTelemetryTopic = (espId: string) => `${TOPIC_ROOT}/machines/${espId}/telemetry`;
export const buildCardsTopic = (espId: string) => `${TOPIC_ROOT}/machines/${espId}/cards`;
export const buildCardsDeltaTopic = (espId: string) => `${TOPIC_ROOT}/machines/${espId}/cards/delta`;
export const buildCardsAckTopic = (espId: string) => `${TOPIC_ROOT}/machines/${espId}/cards/ack`;

export type ParsedTopic =
  | { kind: 'hello' | 'assignment'; mac: string }
  | {
      kind:
        | 'sales'
        | 'sales-ack'
        | 'status'
        | 'config'
        | 'config-ack'
        | 'telemetry'
        | 'cards'
        | 'cards-delta'
        | 'cards-ack';
      espId: string;
    }
  | { kind: 'unknown' };

/** Parses a topic of the protocol; anything else is `unknown`. */
export function parseTopic(topic: string): ParsedTopic {
  const parts = topic.split('/');
  if (parts[0] !== 'wv' || parts[1] !== 'v1') return { kind: 'unknown' };
  if (parts[2] === 'provision' && parts.length === 5 && /^[0-9A-F]{12}$/.test(parts[3]!)) {
    if (parts[4] === 'hello') return { kind: 'hello', mac: parts[3]! };
    if (parts[4] === 'assignment') return { kind: 'assignment', mac: parts[3]! };
  }
  if (parts[2] === 'machines' && parts.length >= 5 && parts[3]) {
    const espId = parts[3];
    const rest = parts.slice(4).join('/');
    const kinds: Record<string, ParsedTopic['kind']> = {
      sales: 'sales',
      'sales/ack': 'sales-ack',
      status: 'status',
      config: 'config',
      'config/ack': 'config-ack',
      telemetry: 'telemetry',
      cards: 'cards',
      'cards/delta': 'cards-delta',
      'cards/ack': 'cards-ack',
    };
    const kind = kinds[rest];
    if (kind) return { kind, espId } as ParsedTopic;
  }
  return { kind: 'unknown' };
}
