import { afterEach, describe, expect, it } from '@jest/globals';
import { once } from 'node:events';
import net, { type AddressInfo, type Socket } from 'node:net';
import mqttPacket from 'mqtt-packet';
import { coalesceWrites } from '../src/write-coalescer.js';

/** A connected pair of loopback sockets; `writes` counts the system writes the server side asks for. */
async function socketPair(): Promise<{ server: Socket; client: Socket; writes: () => number; close: () => void }> {
  const listener = net.createServer();
  listener.listen(0, '127.0.0.1');
  await once(listener, 'listening');
  const client = net.connect((listener.address() as AddressInfo).port, '127.0.0.1');
  const [server] = (await once(listener, 'connection')) as [Socket];
  await once(client, 'connect');
  let count = 0;
  const internals = server as unknown as Record<'_write' | '_writev', (...args: unknown[]) => unknown>;
  for (const method of ['_write', '_writev'] as const) {
    const original = internals[method].bind(server);
    internals[method] = (...args: unknown[]) => {
      count++;
      return original(...args);
    };
  }
  return {
    server,
    client,
    writes: () => count,
    close: () => {
      client.destroy();
      server.destroy();
      listener.close();
    },
  };
}

/** Reads MQTT packets from `socket` until `count` have arrived. */
function readPackets(socket: Socket, count: number): Promise<mqttPacket.Packet[]> {
  const parser = mqttPacket.parser({ protocolVersion: 4 });
  const packets: mqttPacket.Packet[] = [];
  return new Promise((resolve) => {
    parser.on('packet', (packet) => {
      packets.push(packet);
      if (packets.length === count) resolve(packets);
    });
    socket.on('data', (data) => parser.parse(data));
  });
}

const puback = (messageId: number) => ({ cmd: 'puback' as const, messageId });
const turn = () => new Promise((resolve) => setImmediate(resolve));

/** Writes PUBACKs 1..n as Aedes does: each from its own tick, all in the same turn of the event loop. */
async function pubacksInSeparateTicks(socket: Socket, n: number): Promise<void> {
  for (let id = 1; id <= n; id++) {
    mqttPacket.writeToStream(puback(id), socket);
    await new Promise((resolve) => process.nextTick(resolve));
  }
}

describe('coalesceWrites', () => {
  let close: (() => void) | undefined;
  afterEach(() => close?.());

  it('sends the packets written in separate ticks of one turn in one write, in order', async () => {
    const pair = await socketPair();
    close = pair.close;
    coalesceWrites(pair.server);
    const received = readPackets(pair.client, 3);
    await pubacksInSeparateTicks(pair.server, 3);
    await turn();
    expect(pair.writes()).toBe(1);
    expect((await received).map((p) => (p as mqttPacket.IPubackPacket).messageId)).toEqual([1, 2, 3]);
  });

  it('is what makes the difference: without it each tick is its own write', async () => {
    const pair = await socketPair();
    close = pair.close;
    const received = readPackets(pair.client, 3);
    await pubacksInSeparateTicks(pair.server, 3);
    await turn();
    expect(pair.writes()).toBe(3);
    await received;
  });

  it('holds nothing past its turn: a later turn writes again, and each write arrives', async () => {
    const pair = await socketPair();
    close = pair.close;
    coalesceWrites(pair.server);
    const received = readPackets(pair.client, 4);
    await pubacksInSeparateTicks(pair.server, 2);
    await turn();
    expect(pair.writes()).toBe(1);
    expect(pair.server.writableLength).toBe(0);
    mqttPacket.writeToStream(puback(3), pair.server);
    mqttPacket.writeToStream(puback(4), pair.server);
    await turn();
    expect(pair.writes()).toBe(2);
    expect((await received).map((p) => (p as mqttPacket.IPubackPacket).messageId)).toEqual([1, 2, 3, 4]);
  });

  it('leaves a destroyed socket alone', async () => {
    const pair = await socketPair();
    close = pair.close;
    coalesceWrites(pair.server);
    pair.server.destroy();
    expect(() => mqttPacket.writeToStream(puback(1), pair.server)).not.toThrow();
    await turn();
    expect(pair.writes()).toBe(0);
  });
});
