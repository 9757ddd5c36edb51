import { buildSalesAckTopic, buildSalesTopic } from '@wv/contracts';
import mqtt, { type MqttClient } from 'mqtt';

/** A real mqtt.js client acting as one ESP32 machine, for integration tests. */
export class TestMachine {
  readonly acked = new Set<string>();
  private ackWaiters: (() => void)[] = [];

  private constructor(
    readonly espId: string,
    readonly client: MqttClient,
  ) {
    client.on('message', (topic, payload) => {
      if (topic !== buildSalesAckTopic(espId)) return;
      for (const id of (JSON.parse(payload.toString()) as { eventIds: string[] }).eventIds) this.acked.add(id);
      this.ackWaiters.forEach((w) => w());
    });
  }

  static async connect(port: number, espId: string, key: string, opts: mqtt.IClientOptions = {}): Promise<TestMachine> {
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, {
      clientId: espId,
      username: espId,
      password: key,
      protocolVersion: 4,
      reconnectPeriod: 0,
      connectTimeout: 5000,
      ...opts,
    });
    const machine = new TestMachine(espId, client);
    await client.subscribeAsync(buildSalesAckTopic(espId), { qos: 1 });
    return machine;
  }

  /** Publishes QoS 1 and resolves on PUBACK. */
  publishSales(payload: unknown, topic = buildSalesTopic(this.espId)): Promise<unknown> {
    const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
    return this.client.publishAsync(topic, body, { qos: 1 });
  }

  /** Resolves once every eventId was acknowledged by `sales/ack` (i.e. committed in PostgreSQL). */
  async waitForAcks(eventIds: string[], timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!eventIds.every((id) => this.acked.has(id))) {
      if (Date.now() > deadline)
        throw new Error(`no sales/ack for ${eventIds.filter((id) => !this.acked.has(id)).join(', ')}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 200);
        this.ackWaiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
      this.ackWaiters = [];
    }
  }

  end(): Promise<void> {
    return this.client.endAsync(true);
  }
}

export async function waitFor<T>(read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`condition not met in ${timeoutMs} ms; last value ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
