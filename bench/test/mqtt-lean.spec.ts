// The benchmark generators' lean MQTT codec (bench/lib/mqtt-lean.mjs) against mqtt-packet, the codec of
// mqtt.js and Aedes: what it writes parses there, and what it reads is what mqtt-packet wrote.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from '@jest/globals';
import mqttPacket from 'mqtt-packet';
import {
  machineConnect,
  packetReader,
  publishEncoder,
  pubackPacket,
  readPublish,
  Qos1Sender,
  PINGREQ,
  DISCONNECT,
} from '../lib/mqtt-lean.mjs';

const OPTS = { protocolVersion: 4 as const };

function parseAll(bytes: Buffer): mqttPacket.Packet[] {
  const parser = mqttPacket.parser(OPTS);
  const packets: mqttPacket.Packet[] = [];
  parser.on('packet', (p) => packets.push(p));
  parser.on('error', (e) => {
    throw e;
  });
  parser.parse(bytes);
  return packets;
}

describe('the benchmark generators’ MQTT codec', () => {
  it.each([0, 1, 127, 128, 16_383, 16_384, 200_000])(
    'encodes a QoS 1 PUBLISH of %i payload bytes as mqtt-packet reads it',
    (size) => {
      const payload = 'é'.repeat(Math.floor(size / 2)) + 'x'.repeat(size % 2);
      const packet = publishEncoder('wv/v1/machines/ESP-1/sales')(payload, 65_535);
      const [parsed] = parseAll(packet) as mqttPacket.IPublishPacket[];
      expect(parsed).toMatchObject({ cmd: 'publish', qos: 1, retain: false, dup: false, messageId: 65_535 });
      expect(parsed.topic).toBe('wv/v1/machines/ESP-1/sales');
      expect(parsed.payload.toString('utf8')).toBe(payload);
      expect(mqttPacket.generate({ ...parsed, payload })).toEqual(packet);
    },
  );

  it('connects as a machine: client id and username its ESP ID, password its device key', () => {
    const [connect] = parseAll(
      machineConnect({ espId: 'ESP-1', deviceKey: 'k3y', clean: false }),
    ) as mqttPacket.IConnectPacket[];
    expect(connect).toMatchObject({
      cmd: 'connect',
      protocolVersion: 4,
      clean: false,
      clientId: 'ESP-1',
      username: 'ESP-1',
      keepalive: 60,
    });
    expect(connect.password?.toString()).toBe('k3y');
  });

  it('encodes PINGREQ and DISCONNECT', () => {
    expect(parseAll(Buffer.concat([PINGREQ, DISCONNECT])).map((p) => p.cmd)).toEqual(['pingreq', 'disconnect']);
  });

  it('reads packets split at every byte and packed together', () => {
    const stream = Buffer.concat([
      mqttPacket.generate({ cmd: 'connack', returnCode: 0, sessionPresent: false }, OPTS),
      ...[1, 2, 300, 65_535].map((messageId) => mqttPacket.generate({ cmd: 'puback', messageId }, OPTS)),
      mqttPacket.generate(
        { cmd: 'publish', topic: 't/' + 'x'.repeat(200), payload: 'y'.repeat(300), qos: 0, retain: false, dup: false },
        OPTS,
      ),
      mqttPacket.generate({ cmd: 'pingresp' }, OPTS),
    ]);
    for (const step of [1, 2, 3, 7, stream.length]) {
      const seen: string[] = [];
      const read = packetReader((type: number, body: Buffer) =>
        seen.push(
          type === 4
            ? `puback ${body.readUInt16BE(0)}`
            : type === 2
              ? `connack ${body[1]}`
              : `type ${type} ${body.length}`,
        ),
      );
      for (let at = 0; at < stream.length; at += step) read(stream.subarray(at, at + step));
      expect(seen).toEqual([
        'connack 0',
        'puback 1',
        'puback 2',
        'puback 300',
        'puback 65535',
        'type 3 504',
        'type 13 0',
      ]);
    }
  });

  it('reads a received PUBLISH and answers its QoS 1 with the PUBACK mqtt-packet expects', () => {
    const payload = JSON.stringify({ eventIds: ['a', 'b'] });
    const seen: unknown[] = [];
    const read = packetReader((type: number, body: Buffer, flags: number) => {
      const { topic, qos, packetId, payload: bytes } = readPublish(flags, body);
      seen.push([type, topic, qos, packetId, bytes.toString()]);
    });
    read(
      Buffer.concat([
        mqttPacket.generate(
          {
            cmd: 'publish',
            topic: 'wv/v1/machines/M/sales/ack',
            payload,
            qos: 1,
            messageId: 513,
            retain: false,
            dup: false,
          },
          OPTS,
        ),
        mqttPacket.generate({ cmd: 'publish', topic: 't', payload: 'q0', qos: 0, retain: false, dup: false }, OPTS),
      ]),
    );
    expect(seen).toEqual([
      [3, 'wv/v1/machines/M/sales/ack', 1, 513, payload],
      [3, 't', 0, undefined, 'q0'],
    ]);
    expect(parseAll(pubackPacket(513))).toMatchObject([{ cmd: 'puback', messageId: 513 }]);
  });

  it('sends QoS 1 publishes with free packet ids and gives each tag back once', async () => {
    const socket = new PassThrough();
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    const sender = new Qos1Sender(socket, 'wv/v1/machines/M/sales');
    sender.send('{"n":1}', 'first');
    sender.send('{"n":2}', 'second');
    expect(sender.inFlight).toBe(2);
    await new Promise((resolve) => setImmediate(resolve));
    const published = parseAll(Buffer.concat(chunks)) as mqttPacket.IPublishPacket[];
    expect(published.map((p) => [p.messageId, p.payload.toString()])).toEqual([
      [1, '{"n":1}'],
      [2, '{"n":2}'],
    ]);
    expect(sender.acknowledged(2)).toBe('second');
    expect(sender.acknowledged(2)).toBeUndefined();
    expect(sender.acknowledged(7)).toBeUndefined();
    expect(sender.inFlight).toBe(1);
  });

  it('refuses a Remaining Length longer than four bytes', () => {
    const read = packetReader(() => undefined);
    expect(() => read(Buffer.from([0x40, 0xff, 0xff, 0xff, 0xff, 0x01]))).toThrow('malformed Remaining Length');
  });
});
