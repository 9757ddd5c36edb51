/**
 * A plain Aedes broker on 127.0.0.1 and a free port, playing the platform's server in protocol tests:
 * it records what devices publish, answers sales with sales/ack, and publishes retained messages.
 */
import { buildSalesAckTopic, parseTopic, type Sale } from '@wv/contracts';
import { Aedes } from 'aedes';
import { once } from 'node:events';
import { createServer, type AddressInfo, type Server } from 'node:net';

export interface ReceivedMessage {
  topic: string;
  payload: Buffer;
  clientId: string | null;
  retain: boolean;
}

export interface ConnectAttempt {
  clientId: string;
  username: string | undefined;
  password: string | undefined;
}

export class TestServer {
  readonly messages: ReceivedMessage[] = [];
  readonly connects: ConnectAttempt[] = [];
  /** When true, every sales message is answered with a sales/ack for its eventIds. */
  autoAck: boolean;

  private constructor(
    readonly broker: Aedes,
    private readonly server: Server,
    readonly url: string,
    autoAck: boolean,
  ) {
    this.autoAck = autoAck;
  }

  static async start(options: { autoAck?: boolean } = {}): Promise<TestServer> {
    const broker = await Aedes.createBroker({ heartbeatInterval: 60_000 });
    const server = createServer(broker.handle);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    const test = new TestServer(broker, server, `mqtt://127.0.0.1:${port}`, options.autoAck ?? true);
    broker.authenticate = (client, username, password, done) => {
      test.connects.push({ clientId: client.id, username, password: password?.toString() });
      done(null, true);
    };
    broker.on('publish', (packet, client) => {
      if (packet.topic.startsWith('$SYS')) return;
      const payload = Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload);
      test.messages.push({ topic: packet.topic, payload, clientId: client?.id ?? null, retain: packet.retain });
      const parsed = parseTopic(packet.topic);
      if (client && parsed.kind === 'sales' && test.autoAck) {
        const eventIds = toSales(payload).map((s) => s.eventId);
        void test.publish(buildSalesAckTopic(parsed.espId), { eventIds });
      }
    });
    return test;
  }

  /** Every JSON payload received on `topic`, in order. */
  payloads<T = unknown>(topic: string): T[] {
    return this.messages.filter((m) => m.topic === topic).map((m) => JSON.parse(m.payload.toString()) as T);
  }

  /** Every sale received on `topic`, arrays flattened, duplicates kept. */
  sales(topic: string): Sale[] {
    return this.messages.filter((m) => m.topic === topic).flatMap((m) => toSales(m.payload));
  }

  publish(topic: string, body: unknown, retain = false): Promise<void> {
    const payload = Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
    return new Promise((resolve, reject) => {
      this.broker.publish({ cmd: 'publish', topic, payload, qos: 1, retain, dup: false }, (err) =>
        err ? reject(err) : resolve(),
      );
    });
  }

  /** Polls until `predicate()` holds; fails with `what` after `timeoutMs`. */
  async waitFor(what: string, predicate: () => boolean, timeoutMs = 5_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.broker.close(() => resolve()));
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function toSales(payload: Buffer): Sale[] {
  const body = JSON.parse(payload.toString()) as Sale | Sale[];
  return Array.isArray(body) ? body : [body];
}
