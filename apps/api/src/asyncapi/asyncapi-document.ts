import {
  alarmSchema,
  assignmentPayloadSchema,
  buildAssignmentTopic,
  buildCardsAckTopic,
  buildCardsDeltaTopic,
  buildCardsTopic,
  buildConfigAckTopic,
  buildConfigTopic,
  buildHelloTopic,
  buildSalesAckTopic,
  buildSalesTopic,
  buildStatusTopic,
  buildTelemetryTopic,
  cardListAckPayloadSchema,
  cardListDeltaPayloadSchema,
  cardListPayloadSchema,
  configAckPayloadSchema,
  configAppliedEventSchema,
  configPayloadSchema,
  deviceAnnouncedEventSchema,
  floatRequestedEventSchema,
  floatUpdatedEventSchema,
  helloPayloadSchema,
  machineStatusEventSchema,
  paymentUpdatedEventSchema,
  PROVISION_USERNAME,
  saleEventSchema,
  saleSchema,
  salesAckPayloadSchema,
  salesPayloadSchema,
  SOCKET_EVENTS,
  statusPayloadSchema,
  summaryEventSchema,
  telemetryPayloadSchema,
} from '@wv/contracts';
import { z } from 'zod';

type JsonObject = Record<string, unknown>;

/**
 * AsyncAPI 3 schemas are a superset of JSON Schema draft 07, so zod writes draft 07 (no `$defs`,
 * no `prefixItems`). Refinements (the `cardId` of card sales, the decimals of money) are not
 * representable and are described in text instead (docs/device-protocol.md, "Sales").
 */
const toSchema = (schema: z.ZodType, io: 'input' | 'output'): JsonObject => {
  const json = z.toJSONSchema(schema, { target: 'draft-7', io, unrepresentable: 'any' }) as JsonObject;
  const { $schema: _ignored, ...rest } = json;
  return rest;
};

/** The placeholders of the topic builders: `{espId}` and `{mac}` become AsyncAPI channel parameters. */
const ESP_ID = '{espId}';
const MAC = '{mac}';

const MQTT_BINDING_VERSION = '0.2.0';

const mqttOperationBinding = (qos: 0 | 1, retain: boolean) => ({
  mqtt: { qos, retain, bindingVersion: MQTT_BINDING_VERSION },
});

const ref = (path: string) => ({ $ref: path });

interface MqttChannelDef {
  key: string;
  address: string;
  title: string;
  description: string;
  message: string;
  parameter: 'espId' | 'mac';
}

/** One sale, or a batch: the batch's item schema is the sale, with the batch's own limits. */
function salesPayload(): JsonObject {
  const batch = salesPayloadSchema.options[1];
  return {
    oneOf: [toSchema(saleSchema, 'input'), { ...toSchema(batch, 'input'), items: toSchema(saleSchema, 'input') }],
  };
}

const parameters = {
  espId: {
    description:
      'The machine’s ESP ID, given by an admin at provisioning: 1–64 letters, digits, ".", "_" or "-" ' +
      '(never "provision"). It is also the machine’s MQTT username and client id.',
    examples: ['ESP32-0001'],
  },
  mac: {
    description:
      'The machine’s MAC address as 12 upper-case hex digits without separators (the provisioning client id).',
    examples: ['A1B2C3D4E5F6'],
  },
};

const mqttChannels: MqttChannelDef[] = [
  {
    key: 'provisionHello',
    address: buildHelloTopic(MAC),
    title: 'Provisioning hello',
    description: 'A machine without an ESP ID announces its MAC address; the admin then sees it in the MAC list.',
    message: 'hello',
    parameter: 'mac',
  },
  {
    key: 'provisionAssignment',
    address: buildAssignmentTopic(MAC),
    title: 'Provisioning assignment',
    description:
      'The ESP ID and device key an admin gave this MAC, retained until the machine connects with that key. ' +
      'Only the provisioning client that pinned its secret for this MAC may subscribe.',
    message: 'assignment',
    parameter: 'mac',
  },
  {
    key: 'sales',
    address: buildSalesTopic(ESP_ID),
    title: 'Sales',
    description:
      'One sale or an array of 1–1000 sales. PUBACK means the sales are durably queued; `sales/ack` follows once ' +
      'they are committed. Invalid items are kept as dead letters and the connection stays up.',
    message: 'sales',
    parameter: 'espId',
  },
  {
    key: 'salesAck',
    address: buildSalesAckTopic(ESP_ID),
    title: 'Sales acknowledgement',
    description:
      'The event ids of sales committed in PostgreSQL (duplicates included), at most 100 per message. A machine ' +
      'keeps a sale in flash until its id appears here.',
    message: 'salesAck',
    parameter: 'espId',
  },
  {
    key: 'status',
    address: buildStatusTopic(ESP_ID),
    title: 'Machine status',
    description:
      'Retained; also the CONNECT will (`{"online":false}`), the only will the broker accepts from a machine.',
    message: 'status',
    parameter: 'espId',
  },
  {
    key: 'config',
    address: buildConfigTopic(ESP_ID),
    title: 'Configuration',
    description:
      'Wi-Fi credentials and tariffs, retained, republished on every change and whenever the machine connects. ' +
      '`version` only grows; cleared Wi-Fi is empty strings.',
    message: 'config',
    parameter: 'espId',
  },
  {
    key: 'configAck',
    address: buildConfigAckTopic(ESP_ID),
    title: 'Configuration acknowledgement',
    description: 'The config version the machine has applied; the web app shows settings as applied or pending.',
    message: 'configAck',
    parameter: 'espId',
  },
  {
    key: 'telemetry',
    address: buildTelemetryTopic(ESP_ID),
    title: 'Telemetry',
    description:
      'Sensor readings, QoS 0 or 1, every field optional (docs/alarms.md, "Telemetry"). An absent field says ' +
      'nothing; `errorCode: null` ends a reported fault. An invalid payload is dropped whole.',
    message: 'telemetry',
    parameter: 'espId',
  },
  {
    key: 'cards',
    address: buildCardsTopic(ESP_ID),
    title: 'Card list',
    description:
      'The whole list of the cards that work at the machine, retained (docs/device-protocol.md, "Card lists"). ' +
      'Apply it when its `version` is greater than the one held, then acknowledge.',
    message: 'cards',
    parameter: 'espId',
  },
  {
    key: 'cardsDelta',
    address: buildCardsDeltaTopic(ESP_ID),
    title: 'Card list delta',
    description:
      'Changes batched every 2 seconds: apply only when `baseVersion` is the version held; otherwise the ' +
      'full list follows.',
    message: 'cardsDelta',
    parameter: 'espId',
  },
  {
    key: 'cardsAck',
    address: buildCardsAckTopic(ESP_ID),
    title: 'Card list acknowledgement',
    description:
      'The version of the list the machine holds, after each list or delta applied and at every connection ' +
      '(0 when it holds none).',
    message: 'cardsAck',
    parameter: 'espId',
  },
];

/** Operations from the application's point of view: it receives what machines publish, sends the rest. */
const mqttOperations: Array<{ key: string; action: 'send' | 'receive'; channel: string; retain: boolean }> = [
  { key: 'receiveHello', action: 'receive', channel: 'provisionHello', retain: false },
  { key: 'sendAssignment', action: 'send', channel: 'provisionAssignment', retain: true },
  { key: 'receiveSales', action: 'receive', channel: 'sales', retain: false },
  { key: 'sendSalesAck', action: 'send', channel: 'salesAck', retain: false },
  { key: 'receiveStatus', action: 'receive', channel: 'status', retain: true },
  { key: 'sendConfig', action: 'send', channel: 'config', retain: true },
  { key: 'receiveConfigAck', action: 'receive', channel: 'configAck', retain: false },
  { key: 'receiveTelemetry', action: 'receive', channel: 'telemetry', retain: false },
  { key: 'sendCards', action: 'send', channel: 'cards', retain: true },
  { key: 'sendCardsDelta', action: 'send', channel: 'cardsDelta', retain: false },
  { key: 'receiveCardsAck', action: 'receive', channel: 'cardsAck', retain: false },
];

const mqttMessages: Record<string, JsonObject> = {
  hello: {
    name: 'hello',
    title: 'Hello',
    summary: 'The MAC must be the client’s own (its client id); other fields are ignored.',
    payload: toSchema(helloPayloadSchema, 'input'),
    examples: [{ name: 'hello', payload: { macAddress: 'A1:B2:C3:D4:E5:F6', firmware: '2.4.1' } }],
  },
  assignment: {
    name: 'assignment',
    title: 'Assignment',
    payload: toSchema(assignmentPayloadSchema, 'output'),
    examples: [{ name: 'assignment', payload: { espId: 'ESP32-0001', deviceKey: 'dk_5Jq…' } }],
  },
  sales: {
    name: 'sales',
    title: 'Sales',
    summary:
      '`cardId` is required when `kind` is "card"; `price` has at most 2 decimals and `volume` (litres) at most 3; ' +
      '`time` at most 5 minutes ahead and 365 days behind the receive time (absent: the receive time).',
    payload: salesPayload(),
    examples: [
      {
        name: 'coin sale',
        payload: { eventId: 'b7e1-000123', kind: 'coin', price: 500, volume: 20, waterType: 'pure' },
      },
      {
        name: 'two sales',
        payload: [
          {
            eventId: 'b7e1-000124',
            kind: 'card',
            price: 250,
            volume: 10,
            waterType: 'cold',
            cardId: '04A1B2C3',
            time: '2026-11-25T08:15:00+03:00',
          },
          {
            eventId: 'b7e1-000125',
            kind: 'coin',
            price: 100,
            volume: 4.5,
            waterType: 'fresh',
            time: '2026-11-25T08:16:30Z',
          },
        ],
      },
    ],
  },
  salesAck: {
    name: 'salesAck',
    title: 'Sales acknowledgement',
    payload: toSchema(salesAckPayloadSchema, 'output'),
    examples: [{ name: 'sales/ack', payload: { eventIds: ['b7e1-000124', 'b7e1-000125'] } }],
  },
  status: {
    name: 'status',
    title: 'Status',
    payload: toSchema(statusPayloadSchema, 'input'),
    examples: [
      { name: 'online', payload: { online: true, firmware: '2.4.1', rssi: -67 } },
      { name: 'will', payload: { online: false } },
    ],
  },
  config: {
    name: 'config',
    title: 'Configuration',
    payload: toSchema(configPayloadSchema, 'output'),
    examples: [
      {
        name: 'config',
        payload: {
          version: 7,
          wifi: { ssid: 'Kiosk-12', password: 'water-2026' },
          tariffs: { cold: 60, fresh: 50, coldCalb: 1.025, freshCalb: 0.98 },
        },
      },
    ],
  },
  configAck: {
    name: 'configAck',
    title: 'Configuration acknowledgement',
    payload: toSchema(configAckPayloadSchema, 'input'),
    examples: [{ name: 'config/ack', payload: { version: 7 } }],
  },
  telemetry: {
    name: 'telemetry',
    title: 'Telemetry',
    payload: toSchema(telemetryPayloadSchema, 'input'),
    examples: [
      {
        name: 'reading',
        payload: {
          time: '2026-11-25T08:15:00+03:00',
          tankLevelPct: 42.5,
          tdsPpm: 180,
          coldWaterTempC: 7.5,
          coinBoxPct: 31,
          errorCode: null,
        },
      },
    ],
  },
  cards: {
    name: 'cards',
    title: 'Card list',
    payload: toSchema(cardListPayloadSchema, 'output'),
    examples: [
      {
        name: 'cards',
        payload: {
          version: 42,
          cards: [
            { cardId: '04A1B2C3', status: 'active', balance: 1250.5, dailyLimitLitres: null },
            { cardId: '04D5E6F7', status: 'blocked', balance: 0, dailyLimitLitres: 40 },
          ],
        },
      },
    ],
  },
  cardsDelta: {
    name: 'cardsDelta',
    title: 'Card list delta',
    payload: toSchema(cardListDeltaPayloadSchema, 'output'),
    examples: [
      {
        name: 'cards/delta',
        payload: {
          version: 43,
          baseVersion: 42,
          upserts: [{ cardId: '04A1B2C3', status: 'active', balance: 1240.5, dailyLimitLitres: null }],
          removals: ['04D5E6F7'],
        },
      },
    ],
  },
  cardsAck: {
    name: 'cardsAck',
    title: 'Card list acknowledgement',
    payload: toSchema(cardListAckPayloadSchema, 'input'),
    examples: [{ name: 'cards/ack', payload: { version: 43 } }],
  },
};

const liveEvents: Array<{ key: string; event: string; schema: z.ZodType; to: string; example: JsonObject }> = [
  {
    key: 'sale',
    event: SOCKET_EVENTS.sale,
    schema: saleEventSchema,
    to: 'sockets whose scope holds the machine',
    example: {
      id: '9f0c2d7e-3c1b-4d8e-9a51-2f7d1c3b8e40',
      machineId: 'ESP32-0001',
      kind: 'coin',
      price: 500,
      volume: 20,
      waterType: 'pure',
      time: '2026-11-25T05:15:00.000Z',
    },
  },
  {
    key: 'summary',
    event: SOCKET_EVENTS.summary,
    schema: summaryEventSchema,
    to: 'sockets whose scope holds the machine, after each change of its day',
    example: {
      machineId: 'ESP32-0001',
      date: '2026-11-25',
      coinBased: { dailyPriceCollected: 12500, volumeSold: 500 },
      cardBased: { dailyPriceCollected: 3000, volumeSold: 120 },
    },
  },
  {
    key: 'machineStatus',
    event: SOCKET_EVENTS.machineStatus,
    schema: machineStatusEventSchema,
    to: 'sockets whose scope holds the machine, once per change',
    example: { machineId: 'ESP32-0001', online: true, lastSeen: '2026-11-25T05:15:00.000Z' },
  },
  {
    key: 'configApplied',
    event: SOCKET_EVENTS.configApplied,
    schema: configAppliedEventSchema,
    to: 'sockets whose scope holds the machine',
    example: { machineId: 'ESP32-0001', version: 7 },
  },
  {
    key: 'floatRequested',
    event: SOCKET_EVENTS.floatRequested,
    schema: floatRequestedEventSchema,
    to: 'the attendant’s manager',
    example: {
      requestId: '0b8f5a52-6f0e-4d43-8f1e-0d4c1f6a9b21',
      attendantId: '5d1e7c3a-2b4f-4a8e-9c6d-7e8f9a0b1c2d',
      attendantName: 'Asha Mwita',
      requestedAmount: 50000,
      requestedAt: '2026-11-25T05:15:00.000Z',
    },
  },
  {
    key: 'floatUpdated',
    event: SOCKET_EVENTS.floatUpdated,
    schema: floatUpdatedEventSchema,
    to: 'the attendant and their manager',
    example: {
      requestId: '0b8f5a52-6f0e-4d43-8f1e-0d4c1f6a9b21',
      status: 'approved',
      approvedAmount: 50000,
      approvedAt: '2026-11-25T05:20:00.000Z',
    },
  },
  {
    key: 'deviceAnnounced',
    event: SOCKET_EVENTS.deviceAnnounced,
    schema: deviceAnnouncedEventSchema,
    to: 'admins, once when a MAC address joins the list of machines waiting for an ESP ID',
    example: { macAddress: 'A1:B2:C3:D4:E5:F6', at: '2026-11-25T05:15:00.000Z' },
  },
  {
    key: 'paymentUpdated',
    event: SOCKET_EVENTS.paymentUpdated,
    schema: paymentUpdatedEventSchema,
    to: 'sockets whose scope holds the card: its owner manager, the attendants of the owner’s machines, admins (docs/mobile-money.md)',
    example: {
      paymentId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
      cardId: '04A1B2C3',
      status: 'completed',
      amount: 1000,
      receipt: 'QX12ABC345',
      completedAt: '2026-11-25T05:16:00.000Z',
    },
  },
  ...(['alarmOpened', 'alarmUpdated'] as const).map((key) => ({
    key,
    event: SOCKET_EVENTS[key],
    schema: alarmSchema,
    to: 'sockets whose scope holds the machine (docs/alarms.md, "Live events")',
    example: {
      id: '3f2b8c1e-6a4d-4e9b-8c7a-1d2e3f4a5b6c',
      machineId: 'ESP32-0001',
      kind: 'low_tank',
      severity: 'major',
      status: key === 'alarmOpened' ? 'open' : 'acknowledged',
      openedAt: '2026-11-25T05:15:00.000Z',
      acknowledgedAt: key === 'alarmOpened' ? null : '2026-11-25T05:18:00.000Z',
      acknowledgedBy: key === 'alarmOpened' ? null : '5d1e7c3a-2b4f-4a8e-9c6d-7e8f9a0b1c2d',
      assigneeId: null,
      clearedAt: null,
      clearedBy: null,
      escalated: false,
      details: { tankLevelPct: 12, lowTankPct: 15, at: '2026-11-25T05:15:00.000Z' },
    },
  })),
];

/**
 * The AsyncAPI 3.1 document of the device protocol (MQTT) and the live events (Socket.IO), generated
 * from the same topic builders and zod schemas the broker, the API and the simulator use.
 * `npm run docs:asyncapi` writes it to docs/asyncapi.json; a unit test keeps that file current.
 */
export function buildAsyncApiDocument(): JsonObject {
  const channels: JsonObject = {};
  for (const c of mqttChannels) {
    channels[c.key] = {
      address: c.address,
      title: c.title,
      description: c.description,
      servers: [ref('#/servers/mqtt')],
      parameters: { [c.parameter]: ref(`#/components/parameters/${c.parameter}`) },
      messages: { [c.message]: ref(`#/components/messages/${c.message}`) },
    };
  }
  channels['live'] = {
    address: '/',
    title: 'Live events',
    description: 'The default Socket.IO namespace. Each message is one event; its `name` is the event name.',
    servers: [ref('#/servers/live')],
    messages: Object.fromEntries(liveEvents.map((e) => [e.key, ref(`#/components/messages/${e.key}`)])),
  };

  const operations: JsonObject = {};
  for (const o of mqttOperations) {
    const channel = mqttChannels.find((c) => c.key === o.channel)!;
    operations[o.key] = {
      action: o.action,
      channel: ref(`#/channels/${o.channel}`),
      summary: `${o.action === 'send' ? 'Publishes' : 'Receives'} ${channel.title.toLowerCase()} (QoS 1${o.retain ? ', retained' : ''})`,
      messages: [ref(`#/channels/${o.channel}/messages/${channel.message}`)],
      bindings: mqttOperationBinding(1, o.retain),
    };
  }
  for (const e of liveEvents) {
    operations[`emit${e.key[0]!.toUpperCase()}${e.key.slice(1)}`] = {
      action: 'send',
      channel: ref('#/channels/live'),
      summary: `Emits \`${e.event}\` to ${e.to}`,
      messages: [ref(`#/channels/live/messages/${e.key}`)],
    };
  }

  const liveMessages = Object.fromEntries(
    liveEvents.map((e) => [
      e.key,
      { name: e.event, title: e.event, payload: toSchema(e.schema, 'output'), examples: [{ payload: e.example }] },
    ]),
  );

  return {
    asyncapi: '3.1.0',
    info: {
      title: 'Water Vending Solutions device protocol and live events',
      version: '1.0.0',
      description:
        'MQTT topics between the machines and the embedded broker, and the Socket.IO events the web app ' +
        'receives. Prose: docs/device-protocol.md and docs/live-events.md. Payloads are UTF-8 JSON of at ' +
        'most 256 KB.',
    },
    defaultContentType: 'application/json',
    servers: {
      mqtt: {
        host: 'localhost:1883',
        protocol: 'mqtt',
        protocolVersion: '3.1.1',
        title: 'Embedded MQTT broker',
        description:
          'TCP on MQTT_PORT (also MQTT over WebSocket at MQTT_WS_PATH, default /mqtt, on the HTTP port). A machine ' +
          `connects with username and client id = its ESP ID and password = its device key; a machine without an ` +
          `ESP ID connects with username "${PROVISION_USERNAME}", client id = its MAC (12 upper-case hex digits) ` +
          'and a secret it chose at first boot.',
        security: [ref('#/components/securitySchemes/deviceCredentials')],
        bindings: {
          mqtt: {
            cleanSession: false,
            lastWill: {
              topic: buildStatusTopic(ESP_ID),
              qos: 1,
              message: JSON.stringify({ online: false }),
              retain: true,
            },
            bindingVersion: MQTT_BINDING_VERSION,
          },
        },
      },
      live: {
        host: 'localhost:3000',
        pathname: '/socket.io',
        protocol: 'ws',
        title: 'Socket.IO',
        description:
          'Socket.IO 4 on the HTTP port (PORT), default namespace. The client sends its token as `auth: {token}` ' +
          'in the handshake; a bad or expired token is refused.',
        security: [ref('#/components/securitySchemes/bearerToken')],
      },
    },
    channels,
    operations,
    components: {
      parameters,
      messages: { ...mqttMessages, ...liveMessages },
      securitySchemes: {
        deviceCredentials: {
          type: 'userPassword',
          description: 'MQTT CONNECT username and password: the ESP ID and its device key (or the provisioning pair).',
        },
        bearerToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'The token of POST /api/login, sent as `auth.token` in the Socket.IO handshake.',
        },
      },
    },
  };
}
