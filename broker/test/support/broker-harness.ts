/** Test helpers: a broker on a free port of 127.0.0.1, fake API hooks, and real mqtt.js devices. */
import { jest } from '@jest/globals';
import mqtt, { ErrorWithSubackPacket, type IClientOptions, type MqttClient } from 'mqtt';
import {
  createBroker,
  type BrokerHooks,
  type BrokerOptions,
  type SaleEnvelope,
  type WvBroker,
} from '../../src/index.js';

export const MACHINE_KEYS: Record<string, string> = { ESP001: 'key-001', ESP002: 'key-002', ESP003: 'key-003' };

export interface Deferred<T = void> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: Error) => void;
}

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

type RequiredHooks = Pick<BrokerHooks, 'authenticateMachine' | 'verifyProvisioningSecret' | 'persistSales'>;

/** Hooks as the API would supply them, backed by memory; every hook is a mock, overrides included. */
export function createFakeHooks(overrides: Partial<RequiredHooks> = {}) {
  const batches: SaleEnvelope[][] = [];
  const pinned = new Map<string, string>();
  const hooks = {
    authenticateMachine: jest.fn<RequiredHooks['authenticateMachine']>(
      overrides.authenticateMachine ?? (async (espId, key) => MACHINE_KEYS[espId] === key),
    ),
    // The API's rule: the first secret seen for a MAC is pinned, later ones must match it.
    verifyProvisioningSecret: jest.fn<RequiredHooks['verifyProvisioningSecret']>(
      overrides.verifyProvisioningSecret ??
        (async (mac, secret) => {
          if (!pinned.has(mac)) pinned.set(mac, secret);
          return pinned.get(mac) === secret;
        }),
    ),
    persistSales: jest.fn<RequiredHooks['persistSales']>(
      overrides.persistSales ??
        (async (batch) => {
          batches.push(batch);
        }),
    ),
    onDeviceMessage: jest.fn<NonNullable<BrokerHooks['onDeviceMessage']>>(),
    onClientConnected: jest.fn<NonNullable<BrokerHooks['onClientConnected']>>(),
    onClientDisconnected: jest.fn<NonNullable<BrokerHooks['onClientDisconnected']>>(),
  };
  return { hooks, batches };
}

/** Owns everything a test opens, so that `cleanup()` in afterEach leaves no socket or timer behind. */
export class BrokerHarness {
  broker: WvBroker | null = null;
  url = '';
  private clients: MqttClient[] = [];

  async start(options: BrokerOptions, hooks: BrokerHooks): Promise<WvBroker> {
    this.broker = await createBroker({ drainTimeout: 2000, ...options }, hooks);
    const port = await this.broker.listen(0, '127.0.0.1');
    this.url = `mqtt://127.0.0.1:${port}`;
    return this.broker;
  }

  /** Connects a device; rejects with mqtt.js' error when the broker refuses the CONNECT. */
  connect(options: IClientOptions, url = this.url): Promise<MqttClient> {
    const client = mqtt.connect(url, {
      protocolVersion: 4,
      reconnectPeriod: 0,
      connectTimeout: 2000,
      clean: true,
      ...options,
    });
    // publishOutcome() listens for 'close' once per publish in flight.
    client.setMaxListeners(200);
    this.clients.push(client);
    return new Promise((resolve, reject) => {
      client.once('connect', () => resolve(client));
      client.once('error', reject);
      client.once('close', () => reject(new Error('connection closed before CONNACK')));
    });
  }

  machine(espId: string, options: IClientOptions = {}): Promise<MqttClient> {
    return this.connect({ clientId: espId, username: espId, password: MACHINE_KEYS[espId], ...options });
  }

  async cleanup(): Promise<void> {
    await Promise.all(this.clients.map((client) => client.endAsync(true).catch(() => undefined)));
    this.clients = [];
    await this.broker?.close();
    this.broker = null;
  }
}

export type PublishOutcome = 'acked' | 'closed';

/** Publishes and reports whether the broker acknowledged it or dropped the connection first. */
export function publishOutcome(
  client: MqttClient,
  topic: string,
  payload: string | Buffer,
  qos: 0 | 1 = 1,
): Promise<PublishOutcome> {
  return new Promise((resolve) => {
    const onClose = () => resolve('closed');
    client.once('close', onClose);
    client.publish(topic, payload, { qos }, (error) => {
      client.off('close', onClose);
      resolve(error ? 'closed' : 'acked');
    });
  });
}

/** The QoS the broker granted for one filter; 128 is MQTT's "refused" (mqtt.js reports it as an error). */
export function subscribeGranted(client: MqttClient, topic: string): Promise<number> {
  return new Promise((resolve, reject) => {
    client.subscribe(topic, { qos: 1 }, (error, granted) => {
      if (error instanceof ErrorWithSubackPacket) return resolve(Number(error.packet.granted[0]));
      if (error) return reject(error);
      resolve(granted?.[0]?.qos ?? -1);
    });
  });
}

export function closed(client: MqttClient): Promise<void> {
  if (!client.connected) return Promise.resolve();
  return new Promise((resolve) => client.once('close', () => resolve()));
}

export async function waitFor(predicate: () => boolean, timeoutMs = 2000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const sale = (eventId: string) =>
  JSON.stringify({ eventId, kind: 'coin', price: 500, volume: 5, waterType: 'pure' });
