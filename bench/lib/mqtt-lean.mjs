// The few MQTT 3.1.1 packets a load generator sends and reads on its hot path, without a codec's
// general machinery: a generator that shares the machine with the server must spend as little of it as
// it can (docs/performance.md). `mqtt-packet` costs about ten `debug()` calls and a buffer list per
// packet parsed; here a PUBLISH is one buffer written, and an incoming packet is read in place.
// Packet layouts: MQTT 3.1.1, sections 2.2 (fixed header, Remaining Length), 3.3 (PUBLISH), 3.4 (PUBACK).
// CONNECT, sent once per connection, is left to mqtt-packet.
import mqttPacket from 'mqtt-packet';

/** The Remaining Length of section 2.2.3: 7 bits per byte, the high bit set on every byte but the last. */
export function remainingLength(length) {
  const bytes = [];
  do {
    let byte = length % 128;
    length = Math.floor(length / 128);
    if (length > 0) byte |= 0x80;
    bytes.push(byte);
  } while (length > 0);
  return Buffer.from(bytes);
}

/**
 * QoS 1 PUBLISHes of one connection on one topic. Each gets a free 16-bit packet id and keeps what its sender
 * gives with it until its PUBACK; several written in one turn of the event loop leave in one write (cork).
 */
export class Qos1Sender {
  constructor(socket, topic) {
    this.socket = socket;
    this.encode = publishEncoder(topic);
    this.nextId = 1;
    /** packet id → what the sender gave */
    this.waiting = new Map();
    this.corked = false;
  }

  get inFlight() {
    return this.waiting.size;
  }

  /** Writes `payload`; `tag` comes back from `acknowledged` at its PUBACK. */
  send(payload, tag) {
    let id = this.nextId;
    while (this.waiting.has(id)) id = (id % 65535) + 1;
    this.nextId = (id % 65535) + 1;
    this.waiting.set(id, tag);
    if (!this.corked) {
      this.corked = true;
      this.socket.cork();
      process.nextTick(() => {
        this.corked = false;
        this.socket.uncork();
      });
    }
    this.socket.write(this.encode(payload, id));
  }

  /** The tag of the PUBLISH a PUBACK names, once; undefined for an id not in flight. */
  acknowledged(packetId) {
    const tag = this.waiting.get(packetId);
    if (tag !== undefined) this.waiting.delete(packetId);
    return tag;
  }
}

/** Encodes PUBLISH packets at QoS 1, not retained, not a duplicate, on one topic. */
export function publishEncoder(topic) {
  const topicBytes = Buffer.from(topic, 'utf8');
  return (payload, packetId) => {
    const payloadLength = Buffer.byteLength(payload, 'utf8');
    const length = 2 + topicBytes.length + 2 + payloadLength;
    const lengthBytes = remainingLength(length);
    const packet = Buffer.allocUnsafe(1 + lengthBytes.length + length);
    let at = 0;
    packet[at++] = 0x32; // PUBLISH, QoS 1
    for (const byte of lengthBytes) packet[at++] = byte;
    packet.writeUInt16BE(topicBytes.length, at);
    at += 2;
    at += topicBytes.copy(packet, at);
    packet.writeUInt16BE(packetId, at);
    at += 2;
    packet.write(payload, at, 'utf8');
    return packet;
  };
}

/** PUBACK of a QoS 1 PUBLISH the client received (section 3.4). */
export function pubackPacket(packetId) {
  const packet = Buffer.from([0x40, 0x02, 0, 0]);
  packet.writeUInt16BE(packetId, 2);
  return packet;
}

/**
 * The topic, packet id (QoS > 0) and payload of a PUBLISH the client received, from its fixed header's
 * flags and its body (section 3.3).
 */
export function readPublish(flags, body) {
  const topicLength = body.readUInt16BE(0);
  const topic = body.toString('utf8', 2, 2 + topicLength);
  const qos = (flags >> 1) & 0x03;
  const packetId = qos > 0 ? body.readUInt16BE(2 + topicLength) : undefined;
  return { topic, qos, packetId, payload: body.subarray(2 + topicLength + (qos > 0 ? 2 : 0)) };
}

/** A machine's CONNECT as firmware sends it (client id and username = ESP ID, password = device key). */
export function machineConnect({ espId, deviceKey, clean }) {
  return mqttPacket.generate({
    cmd: 'connect',
    protocolId: 'MQTT',
    protocolVersion: 4,
    clean,
    clientId: espId,
    username: espId,
    password: Buffer.from(deviceKey),
    keepalive: 60,
  });
}

/** Feeds what `socket` reads to `packetReader(onPacket)`; a malformed stream destroys the socket. */
export function readPackets(socket, onPacket) {
  const read = packetReader(onPacket);
  socket.on('data', (chunk) => {
    try {
      read(chunk);
    } catch (error) {
      socket.destroy(error);
    }
  });
}

export const PINGREQ = Buffer.from([0xc0, 0x00]);
export const DISCONNECT = Buffer.from([0xe0, 0x00]);

/**
 * Splits a byte stream into packets and calls `onPacket(type, body, flags)` for each: `type` is the fixed
 * header's high nibble (2 CONNACK, 3 PUBLISH, 4 PUBACK, 9 SUBACK, 13 PINGRESP, …), `flags` its low nibble,
 * `body` a view of the variable header and payload, valid only during the call. A packet split across
 * reads is kept until it is whole.
 */
export function packetReader(onPacket) {
  let held = null;
  return (chunk) => {
    let data = held ? Buffer.concat([held, chunk]) : chunk;
    held = null;
    let at = 0;
    while (at < data.length) {
      let length = 0;
      let multiplier = 1;
      let cursor = at + 1;
      let complete = false;
      let i = 0;
      for (; i < 4 && cursor < data.length; i++) {
        const byte = data[cursor++];
        length += (byte & 0x7f) * multiplier;
        multiplier *= 128;
        if ((byte & 0x80) === 0) {
          complete = true;
          break;
        }
      }
      if (!complete && i === 4) throw new Error('malformed Remaining Length');
      if (!complete || cursor + length > data.length) break;
      onPacket(data[at] >> 4, data.subarray(cursor, cursor + length), data[at] & 0x0f);
      at = cursor + length;
    }
    if (at < data.length) held = Buffer.from(data.subarray(at));
  };
}
