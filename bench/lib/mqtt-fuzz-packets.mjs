// Inputs of the MQTT fuzzer: valid packet sequences made with mqtt-packet, their mutations, and the
// known crash inputs of MQTT brokers written out byte by byte. Each input is an array of Buffers (one
// per packet) sent over one connection.
import mqttPacket from 'mqtt-packet';
import {
  buildConfigAckTopic,
  buildConfigTopic,
  buildHelloTopic,
  buildSalesAckTopic,
  buildSalesTopic,
  buildStatusTopic,
  PROVISION_USERNAME,
} from '@wv/contracts';
import { remainingLength } from './mqtt-lean.mjs';

// ---- raw encoding, for what mqtt-packet refuses to generate ----

export const varint = remainingLength;

const u16 = (n) => Buffer.from([(n >> 8) & 0xff, n & 0xff]);
const bin = (s) => (Buffer.isBuffer(s) ? s : Buffer.from(s, 'utf8'));
/** A length-prefixed MQTT string (the length wraps like a careless client's would). */
export const mqttString = (s) => Buffer.concat([u16(bin(s).length & 0xffff), bin(s)]);
export const raw = (firstByte, ...body) => {
  const b = Buffer.concat(body.map(bin));
  return Buffer.concat([Buffer.from([firstByte]), varint(b.length), b]);
};

function rawConnect({ name = 'MQTT', level = 4, flags, keepalive = 60, clientId = '', username, password, will }) {
  let f = flags ?? 0x02;
  if (flags === undefined) {
    if (username !== undefined) f |= 0x80;
    if (password !== undefined) f |= 0x40;
    if (will) f |= 0x04;
  }
  const parts = [mqttString(name), Buffer.from([level, f]), u16(keepalive), mqttString(clientId)];
  if (will) parts.push(mqttString(will.topic), mqttString(will.payload));
  if (username !== undefined) parts.push(mqttString(username));
  if (password !== undefined) parts.push(mqttString(password));
  return raw(0x10, ...parts);
}

export function generate(packet) {
  try {
    return mqttPacket.generate(packet, { protocolVersion: packet.protocolVersion ?? 4 });
  } catch {
    return null;
  }
}

// ---- valid building blocks ----

export function validSale(rng, eventId = `fz-${rng.alnum(12)}`) {
  const volume = rng.pick([0.5, 1, 5, 10, 20]);
  const card = rng.chance(0.3);
  return {
    eventId,
    kind: card ? 'card' : 'coin',
    price: volume * 50,
    volume,
    waterType: rng.pick(['pure', 'fresh', 'cold']),
    ...(card ? { cardId: `FZ-CARD-${rng.int(20)}` } : {}),
  };
}

const EDGE_NUMBERS = [0, -0, -1, 1e-9, 0.005, 2 ** 53 + 1, 1e308, -1e308, 999999999999.99, 1e13, 123.456789];
const EDGE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '👩🏽‍🔧'.repeat(20),
  'ي'.repeat(70),
  '%s%n',
  '${x}',
  '<script>',
];

/** A sale payload, usually broken in one field, sometimes not JSON at all. */
function salePayload(rng) {
  const sale = validSale(rng);
  const field = rng.pick(['eventId', 'kind', 'price', 'volume', 'waterType', 'cardId', 'time', 'extra']);
  const choice = rng.int(12);
  if (choice < 3) return JSON.stringify(sale);
  if (choice < 6) {
    sale[field] = rng.weighted([
      [3, rng.pick(EDGE_NUMBERS)],
      [3, rng.pick(EDGE_STRINGS)],
      [1, null],
      [1, { nested: [1, 2, { deeper: true }] }],
      [1, 'x'.repeat(rng.pick([65, 1000, 70_000]))],
      [1, rng.pick(['2999-01-01T00:00:00Z', '1970-01-01T00:00:00Z', 'not a time', '2024-02-30T25:61:00+99:00'])],
      [1, [sale.eventId]],
    ]);
    return JSON.stringify(sale);
  }
  if (choice === 6) return JSON.stringify(Array.from({ length: rng.pick([0, 2, 100, 1000]) }, () => validSale(rng)));
  if (choice === 7) return rng.pick(['', 'null', '[]', '{}', '"sale"', '1e999', '{"eventId":', 'true']);
  if (choice === 8) return '['.repeat(rng.chance(0.9) ? 1000 : 100_000) + ']'.repeat(rng.pick([0, 1000]));
  if (choice === 9) return rng.bytes(rng.range(1, 512));
  // Near and over the 256 KB payload limit now and then; big payloads otherwise crowd out the rest.
  if (choice === 10)
    return JSON.stringify({ ...sale, pad: 'p'.repeat(rng.chance(0.95) ? 1024 : rng.pick([262_000, 300_000])) });
  return JSON.stringify([sale, sale, { ...sale, eventId: sale.eventId + '-b' }]);
}

/** Topics a device might send: its own, another's, wildcards, junk. */
function topicFor(rng, ctx, me) {
  const other = rng.pick(ctx.honest.map((m) => m.espId));
  return rng.weighted([
    [6, buildSalesTopic(me)],
    [2, buildStatusTopic(me)],
    [1, buildConfigAckTopic(me)],
    [1, buildConfigTopic(me)],
    [1, buildSalesAckTopic(me)],
    [2, buildSalesTopic(other)],
    [1, buildHelloTopic(rng.pick(ctx.macs))],
    [1, rng.pick(['#', '+', `wv/v1/machines/${me}/#`, 'wv/v1/machines/+/sales', 'wv/v1/#', '$SYS/#', '+/+/+'])],
    [1, rng.pick(['', '/', '//', 'wv//v1', '$SYS/broker/uptime', 'wv/v1/machines//sales'])],
    [1, 'l/'.repeat(rng.pick([8, 9, 100, 5000])) + 'x'],
    [1, Buffer.concat([Buffer.from(`wv/v1/machines/${me}/`), rng.bytes(rng.range(1, 8))])],
    [1, `wv/v1/machines/${me}\u0000/sales`],
    [1, rng.ascii(rng.range(1, 300))],
  ]);
}

function connectPacket(rng, ctx) {
  const mine = rng.pick(ctx.fuzz);
  const honest = rng.pick(ctx.honest);
  const base = { cmd: 'connect', protocolId: 'MQTT', protocolVersion: 4, clean: rng.chance(0.8), keepalive: 60 };
  const kind = rng.weighted([
    [35, 'valid'],
    [10, 'provision'],
    [10, 'takeover'],
    [8, 'wrong-key'],
    [8, 'id-mismatch'],
    [10, 'garbage'],
    [5, 'empty-id'],
    [5, 'no-credentials'],
    [4, 'will'],
    [5, 'version'],
  ]);
  const packet = (() => {
    switch (kind) {
      case 'valid':
        return { ...base, clientId: mine.espId, username: mine.espId, password: Buffer.from(mine.deviceKey) };
      case 'provision': {
        const mac = rng.pick(ctx.macs);
        return { ...base, clientId: mac, username: PROVISION_USERNAME, password: Buffer.from(rng.pick(['s1', 's2'])) };
      }
      case 'takeover':
        // Another machine's id with a wrong key must not take the honest machine's session over.
        return { ...base, clientId: honest.espId, username: honest.espId, password: Buffer.from(rng.alnum(43)) };
      case 'wrong-key':
        return { ...base, clientId: mine.espId, username: mine.espId, password: Buffer.from(mine.deviceKey + 'x') };
      case 'id-mismatch':
        return { ...base, clientId: honest.espId, username: mine.espId, password: Buffer.from(mine.deviceKey) };
      case 'garbage':
        return {
          ...base,
          clientId: rng.pick([
            rng.ascii(rng.range(1, 40)),
            rng.pick(EDGE_STRINGS),
            'x'.repeat(rng.pick([23, 300, 65535])),
          ]),
          username: rng.pick([rng.ascii(10), rng.pick(EDGE_STRINGS), '../../etc', mine.espId + '\u0000']),
          password: rng.bytes(rng.pick([0, 1, 32, 257, 5000])),
        };
      case 'empty-id':
        return { ...base, clientId: '', username: mine.espId, password: Buffer.from(mine.deviceKey) };
      case 'no-credentials':
        return { ...base, clientId: mine.espId };
      case 'will':
        return {
          ...base,
          clientId: mine.espId,
          username: mine.espId,
          password: Buffer.from(mine.deviceKey),
          will: {
            topic: rng.pick([
              buildStatusTopic(mine.espId),
              buildSalesTopic(mine.espId),
              buildStatusTopic(honest.espId),
              '#',
            ]),
            payload: Buffer.from(rng.pick(['{"online":false}', 'x'.repeat(300_000), '{}'])),
            qos: rng.int(2),
            retain: rng.chance(0.5),
          },
        };
      default:
        return {
          ...base,
          protocolVersion: rng.pick([3, 5]),
          protocolId: 'MQIsdp',
          clientId: mine.espId,
          username: mine.espId,
          password: Buffer.from(mine.deviceKey),
        };
    }
  })();
  if (packet.protocolVersion === 5) packet.protocolId = 'MQTT';
  return { packet, espId: kind === 'provision' ? null : mine.espId, mac: packet.clientId };
}

let messageId = 1;
const nextId = () => (messageId = (messageId % 65535) + 1);

/** One packet after CONNECT, as mqtt-packet would write it. */
function bodyPacket(rng, ctx, me) {
  const espId = me ?? rng.pick(ctx.fuzz).espId;
  const kind = rng.weighted([
    [40, 'publish'],
    [12, 'subscribe'],
    [4, 'unsubscribe'],
    [8, 'pingreq'],
    [6, 'ack'],
    [3, 'disconnect'],
  ]);
  switch (kind) {
    case 'publish': {
      const topic = topicFor(rng, ctx, espId);
      const qos = rng.weighted([
        [3, 1],
        [2, 0],
      ]);
      const payload = String(topic).endsWith('/status')
        ? rng.pick(['{"online":true}', '{"online":"yes"}', '{}', 'nope'])
        : salePayload(rng);
      return { cmd: 'publish', topic, payload, qos, messageId: qos ? nextId() : undefined, retain: rng.chance(0.1) };
    }
    case 'subscribe':
      return {
        cmd: 'subscribe',
        messageId: nextId(),
        subscriptions: Array.from({ length: rng.range(1, 3) }, () => ({
          topic: rng.chance(0.4) ? buildSalesAckTopic(espId) : String(topicFor(rng, ctx, espId)),
          qos: rng.int(3),
        })),
      };
    case 'unsubscribe':
      return { cmd: 'unsubscribe', messageId: nextId(), unsubscriptions: [String(topicFor(rng, ctx, espId))] };
    case 'pingreq':
      return { cmd: 'pingreq' };
    case 'ack':
      return { cmd: rng.pick(['puback', 'pubrec', 'pubrel', 'pubcomp']), messageId: rng.range(0, 65535) };
    default:
      return { cmd: 'disconnect' };
  }
}

/** A plausible session: CONNECT, then a few packets, sometimes DISCONNECT. */
export function validSequence(rng, ctx) {
  const connect = connectPacket(rng, ctx);
  const out = [generate(connect.packet)];
  const count = rng.weighted([
    [6, rng.range(1, 4)],
    [3, rng.range(5, 20)],
    [1, rng.range(100, 400)],
  ]);
  for (let i = 0; i < count; i++) out.push(generate(bodyPacket(rng, ctx, connect.espId)));
  if (rng.chance(0.3)) out.push(generate({ cmd: 'disconnect' }));
  return out.filter(Boolean);
}

// ---- mutations ----

const INTERESTING_BYTES = [0x00, 0x01, 0x7f, 0x80, 0xff, 0x3f, 0x36, 0xc0, 0xe0, 0xf0];
const LENGTHS = [
  varint(0),
  varint(1),
  varint(127),
  varint(128),
  varint(16_383),
  varint(268_435_455),
  Buffer.from([0xff, 0xff, 0xff, 0xff, 0x7f]),
  Buffer.from([0x80, 0x80, 0x80, 0x80]),
];

/** Where the remaining length ends in a packet buffer. */
function headerEnd(buf) {
  let i = 1;
  while (i < buf.length && i < 5 && buf[i] & 0x80) i++;
  return Math.min(i + 1, buf.length);
}

function mutateBytes(rng, buf) {
  const b = Buffer.from(buf);
  if (b.length === 0) return rng.bytes(rng.range(1, 8));
  const at = rng.int(b.length);
  switch (rng.int(9)) {
    case 0:
      b[at] ^= 1 << rng.int(8);
      return b;
    case 1:
      b[at] = rng.pick(INTERESTING_BYTES);
      return b;
    case 2:
      return Buffer.concat([b.subarray(0, at), rng.bytes(rng.range(1, 16)), b.subarray(at)]);
    case 3:
      return Buffer.concat([b.subarray(0, at), b.subarray(Math.min(b.length, at + rng.range(1, 8)))]);
    case 4:
      return b.subarray(0, at);
    case 5:
      // The fixed header's flags and type: QoS 3, reserved types, wrong SUBSCRIBE/PUBREL flags.
      b[0] = rng.chance(0.5) ? (b[0] & 0xf0) | rng.int(16) : rng.int(16) << 4 || 0x0f;
      return b;
    case 6:
      return Buffer.concat([b.subarray(0, 1), rng.pick(LENGTHS), b.subarray(headerEnd(b))]);
    case 7: {
      // The length of the first string (a topic or the protocol name).
      const end = headerEnd(b);
      if (b.length >= end + 2) b.writeUInt16BE(rng.pick([0, 1, 0x7fff, 0xffff, b.length & 0xffff]), end);
      return b;
    }
    default:
      return Buffer.concat([b, b.subarray(0, rng.range(1, b.length))]);
  }
}

export function mutate(rng, packets) {
  let out = [...packets];
  const rounds = rng.weighted([
    [5, 1],
    [3, 2],
    [2, rng.range(3, 8)],
  ]);
  for (let r = 0; r < rounds && out.length; r++) {
    const i = rng.int(out.length);
    switch (rng.int(7)) {
      case 0:
        out.splice(i, 0, out[i]);
        break;
      case 1: {
        const j = rng.int(out.length);
        [out[i], out[j]] = [out[j], out[i]];
        break;
      }
      case 2:
        out.splice(i, 1);
        break;
      case 3:
        if (out[i].length < 2048) out = out.concat(Array(rng.range(10, 300)).fill(out[i]));
        break;
      default:
        out[i] = mutateBytes(rng, out[i]);
    }
  }
  return out;
}

// ---- known crash inputs of MQTT brokers ----

/** Each entry: [name, (ctx, rng) => Buffer[]]. `ctx.fuzz[0]` is a machine with a valid key. */
export const KNOWN_CRASH_INPUTS = [
  [
    'publish before connect',
    (c) => [generate({ cmd: 'publish', topic: buildSalesTopic(c.fuzz[0].espId), payload: '{}', qos: 1, messageId: 1 })],
  ],
  [
    'subscribe before connect',
    () => [generate({ cmd: 'subscribe', messageId: 1, subscriptions: [{ topic: '#', qos: 1 }] })],
  ],
  ['pingreq before connect', () => [generate({ cmd: 'pingreq' })]],
  [
    'over-deep topic publish',
    (c) => [
      connectOf(c),
      generate({ cmd: 'publish', topic: 'a/'.repeat(5000) + 'b', payload: 'x', qos: 1, messageId: 2 }),
    ],
  ],
  [
    'over-deep subscription',
    (c) => [
      connectOf(c),
      generate({ cmd: 'subscribe', messageId: 2, subscriptions: [{ topic: '+/'.repeat(5000) + '#', qos: 1 }] }),
    ],
  ],
  ['empty topic publish QoS 0', (c) => [connectOf(c), raw(0x30, mqttString(''), 'x')]],
  ['empty topic publish QoS 1', (c) => [connectOf(c), raw(0x32, mqttString(''), u16(3), 'x')]],
  ['empty subscription filter', (c) => [connectOf(c), raw(0x82, u16(3), mqttString(''), Buffer.from([1]))]],
  ['huge remaining length on CONNECT', () => [Buffer.from([0x10, 0xff, 0xff, 0xff, 0x7f, 0x00, 0x04])]],
  [
    'huge remaining length on PUBLISH',
    (c) => [connectOf(c), Buffer.concat([Buffer.from([0x32, 0xff, 0xff, 0xff, 0x7f]), mqttString('t')])],
  ],
  ['five-byte remaining length', () => [Buffer.from([0x10, 0xff, 0xff, 0xff, 0xff, 0x7f, 0, 0])]],
  ['invalid UTF-8 topic (C3 28)', (c) => [connectOf(c), raw(0x30, mqttString(Buffer.from([0xc3, 0x28])), 'x')]],
  [
    'UTF-16 surrogate in topic (ED A0 80)',
    (c) => [connectOf(c), raw(0x30, mqttString(Buffer.from([0xed, 0xa0, 0x80])), 'x')],
  ],
  ['overlong UTF-8 topic (C0 AF)', (c) => [connectOf(c), raw(0x30, mqttString(Buffer.from([0x77, 0xc0, 0xaf])), 'x')]],
  [
    'NUL in topic',
    (c) => [connectOf(c), raw(0x32, mqttString(`wv/v1/machines/${c.fuzz[0].espId}\u0000/sales`), u16(4), '{}')],
  ],
  [
    'invalid UTF-8 client id',
    () => [rawConnect({ clientId: Buffer.from([0xff, 0xfe, 0xfd]), username: 'x', password: 'y' })],
  ],
  [
    'invalid UTF-8 username',
    (c) => [rawConnect({ clientId: c.fuzz[0].espId, username: Buffer.from([0xc3, 0x28]), password: 'y' })],
  ],
  [
    'wildcard publish #',
    (c) => [connectOf(c), generate({ cmd: 'publish', topic: '#', payload: '{}', qos: 1, messageId: 5 })],
  ],
  [
    'wildcard publish +',
    (c) => [
      connectOf(c),
      generate({ cmd: 'publish', topic: `wv/v1/machines/+/sales`, payload: '{}', qos: 1, messageId: 6 }),
    ],
  ],
  [
    'wildcard publish under own prefix',
    (c) => [
      connectOf(c),
      generate({ cmd: 'publish', topic: `wv/v1/machines/${c.fuzz[0].espId}/#`, payload: '{}', qos: 0 }),
    ],
  ],
  [
    'zero-length client id, clean session',
    (c) => [rawConnect({ clientId: '', username: c.fuzz[0].espId, password: c.fuzz[0].deviceKey })],
  ],
  [
    'zero-length client id, persistent session',
    (c) => [rawConnect({ flags: 0xc0, clientId: '', username: c.fuzz[0].espId, password: c.fuzz[0].deviceKey })],
  ],
  [
    'CONNECT reserved flag bit',
    (c) => [
      rawConnect({ flags: 0xc3, clientId: c.fuzz[0].espId, username: c.fuzz[0].espId, password: c.fuzz[0].deviceKey }),
    ],
  ],
  [
    'CONNECT password without username',
    (c) => [rawConnect({ flags: 0x42, clientId: c.fuzz[0].espId, password: c.fuzz[0].deviceKey })],
  ],
  ['CONNECT username flag without username', (c) => [rawConnect({ flags: 0x82, clientId: c.fuzz[0].espId })]],
  [
    'CONNECT will QoS 3',
    (c) => [
      rawConnect({
        flags: 0xde,
        clientId: c.fuzz[0].espId,
        will: { topic: 't', payload: 'p' },
        username: c.fuzz[0].espId,
        password: c.fuzz[0].deviceKey,
      }),
    ],
  ],
  [
    'CONNECT will retain without will',
    (c) => [
      rawConnect({ flags: 0xe2, clientId: c.fuzz[0].espId, username: c.fuzz[0].espId, password: c.fuzz[0].deviceKey }),
    ],
  ],
  [
    'CONNECT will to another machine',
    (c) => [
      generate({
        cmd: 'connect',
        clientId: c.fuzz[0].espId,
        username: c.fuzz[0].espId,
        password: Buffer.from(c.fuzz[0].deviceKey),
        keepalive: 60,
        will: {
          topic: buildStatusTopic(c.honest[0].espId),
          payload: Buffer.from('{"online":false}'),
          qos: 1,
          retain: true,
        },
      }),
    ],
  ],
  [
    'CONNECT protocol level 5',
    (c) => [
      rawConnect({ level: 5, clientId: c.fuzz[0].espId, username: c.fuzz[0].espId, password: c.fuzz[0].deviceKey }),
    ],
  ],
  [
    'CONNECT protocol level 0 and 255',
    () => [rawConnect({ level: 0, clientId: 'a' }), rawConnect({ level: 255, clientId: 'b' })],
  ],
  ['CONNECT protocol name MQTX', () => [rawConnect({ name: 'MQTX', clientId: 'a' })]],
  ['CONNECT protocol name MQIsdp at level 4', () => [rawConnect({ name: 'MQIsdp', clientId: 'a' })]],
  [
    'CONNECT keepalive 0 and 65535',
    (c) => [
      rawConnect({ keepalive: 0, clientId: c.fuzz[0].espId, username: c.fuzz[0].espId, password: c.fuzz[0].deviceKey }),
      rawConnect({ keepalive: 65535, clientId: 'x' }),
    ],
  ],
  ['CONNECT 65535-byte client id', () => [rawConnect({ clientId: 'c'.repeat(65535), username: 'u', password: 'p' })]],
  [
    'CONNECT 65535-byte password',
    (c) => [rawConnect({ clientId: c.fuzz[0].espId, username: c.fuzz[0].espId, password: 'p'.repeat(65535) })],
  ],
  ['CONNECT truncated after protocol name', () => [raw(0x10, mqttString('MQTT')), Buffer.from([0x04])]],
  ['second CONNECT on one connection', (c) => [connectOf(c), connectOf(c)]],
  ['QoS 3 publish', (c) => [connectOf(c), raw(0x36, mqttString(buildSalesTopic(c.fuzz[0].espId)), u16(9), '{}')]],
  [
    'QoS 1 publish with message id 0',
    (c) => [connectOf(c), raw(0x32, mqttString(buildSalesTopic(c.fuzz[0].espId)), u16(0), '{}')],
  ],
  ['SUBSCRIBE without filters', (c) => [connectOf(c), raw(0x82, u16(7))]],
  [
    'SUBSCRIBE with QoS 3',
    (c) => [connectOf(c), raw(0x82, u16(8), mqttString(buildSalesAckTopic(c.fuzz[0].espId)), Buffer.from([3]))],
  ],
  [
    'SUBSCRIBE with wrong fixed-header flags',
    (c) => [connectOf(c), raw(0x80, u16(9), mqttString('#'), Buffer.from([1]))],
  ],
  [
    'SUBSCRIBE # and $SYS/#',
    (c) => [
      connectOf(c),
      generate({
        cmd: 'subscribe',
        messageId: 10,
        subscriptions: [
          { topic: '#', qos: 1 },
          { topic: '$SYS/#', qos: 0 },
        ],
      }),
    ],
  ],
  ['UNSUBSCRIBE without filters', (c) => [connectOf(c), raw(0xa2, u16(11))]],
  ['PUBREL with wrong flags', (c) => [connectOf(c), raw(0x60, u16(12))]],
  [
    'PUBACK, PUBREC, PUBCOMP for unknown ids',
    (c) => [connectOf(c), raw(0x40, u16(999)), raw(0x50, u16(998)), raw(0x70, u16(997))],
  ],
  ['reserved packet types 0 and 15', (c) => [connectOf(c), raw(0x00), raw(0xf0, 'x')]],
  ['DISCONNECT with a body', (c) => [connectOf(c), raw(0xe0, Buffer.from([0]))]],
  ['PINGREQ with a body', (c) => [connectOf(c), raw(0xc0, Buffer.from([1]))]],
  [
    'payload over the size limit',
    (c) => [
      connectOf(c),
      generate({
        cmd: 'publish',
        topic: buildSalesTopic(c.fuzz[0].espId),
        payload: 'x'.repeat(300_000),
        qos: 1,
        messageId: 13,
      }),
    ],
  ],
  [
    '1000 pipelined QoS 1 publishes',
    (c, rng) => [
      connectOf(c),
      ...Array.from({ length: 1000 }, (_, i) =>
        generate({
          cmd: 'publish',
          topic: buildSalesTopic(c.fuzz[0].espId),
          payload: JSON.stringify(validSale(rng)),
          qos: 1,
          messageId: (i % 65535) + 1,
        }),
      ),
    ],
  ],
  [
    'sale payload nested 100,000 levels deep',
    (c) => [
      connectOf(c),
      generate({
        cmd: 'publish',
        topic: buildSalesTopic(c.fuzz[0].espId),
        payload: '['.repeat(100_000) + ']'.repeat(100_000),
        qos: 1,
        messageId: 15,
      }),
    ],
  ],
  [
    'NUL in eventId and cardId',
    (c, rng) => [
      connectOf(c),
      generate({
        cmd: 'publish',
        topic: buildSalesTopic(c.fuzz[0].espId),
        payload: JSON.stringify([
          { ...validSale(rng), eventId: 'nul\u0000' },
          { ...validSale(rng), kind: 'card', cardId: 'c\u0000' },
        ]),
        qos: 1,
        messageId: 16,
      }),
    ],
  ],
  [
    'NUL byte in a raw payload',
    (c) => [
      connectOf(c),
      generate({
        cmd: 'publish',
        topic: buildSalesTopic(c.fuzz[0].espId),
        payload: Buffer.from('{"eventId":"a\u0000"}'),
        qos: 1,
        messageId: 17,
      }),
    ],
  ],
  [
    'takeover attempt with a wrong key',
    (c) => [rawConnect({ clientId: c.honest[0].espId, username: c.honest[0].espId, password: 'not-the-key' })],
  ],
  [
    'provisioning with a lower-case MAC and a hello for another MAC',
    (c) => [
      rawConnect({ clientId: c.macs[0].toLowerCase(), username: PROVISION_USERNAME, password: 's1' }),
      rawConnect({ clientId: c.macs[0], username: PROVISION_USERNAME, password: 's1' }),
      generate({
        cmd: 'publish',
        topic: buildHelloTopic(c.macs[1]),
        payload: '{"macAddress":"00:00:00:00:00:01"}',
        qos: 1,
        messageId: 14,
      }),
    ],
  ],
  [
    'MQTT 5 CONNECT with properties',
    (c) => [
      generate({
        cmd: 'connect',
        protocolVersion: 5,
        clientId: c.fuzz[0].espId,
        username: c.fuzz[0].espId,
        password: Buffer.from(c.fuzz[0].deviceKey),
        keepalive: 60,
        properties: { sessionExpiryInterval: 4294967295, receiveMaximum: 1, maximumPacketSize: 1 },
      }),
    ],
  ],
];

function connectOf(ctx) {
  const m = ctx.fuzz[0];
  return generate({
    cmd: 'connect',
    clientId: m.espId,
    username: m.espId,
    password: Buffer.from(m.deviceKey),
    keepalive: 60,
    clean: true,
  });
}
