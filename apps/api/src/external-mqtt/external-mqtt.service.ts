import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { SALE_FLUSH, SaleBatcher, type SaleEnvelope } from '@wv/broker';
import { parseTopic, statusPayloadSchema, TOPIC_ROOT } from '@wv/contracts';
import mqtt, { type IClientOptions, type ISubscriptionMap, type MqttClient } from 'mqtt';
import { DataSource } from 'typeorm';
import { announce } from '../common/announce.js';
import { APP_CONFIG, ConfigError, type AppConfig } from '../config/app-config.js';
import { BrokerIdentityChanges } from '../device/broker-identity-changes.js';
import { DeviceKeyService } from '../device/device-key.service.js';
import { DeviceService } from '../device/device.service.js';
import type { OutboundMessage } from '../device-outbox/device-outbox.js';
import { OutboxListener } from '../device-bridge/outbox-listener.js';
import { DeviceMessageRouter } from '../device-bridge/device-message-router.js';
import { ProvisioningService } from '../device-bridge/provisioning.service.js';
import type { MqttHealth } from '../health/health.service.js';
import { DynsecControl } from './dynsec-control.js';
import { DynsecIdentities } from './dynsec-identities.js';

/**
 * Consumer connections per process. The MQTT client hands over one publish at a time per connection and waits for
 * its PUBACK, so these are the sales a process can have on their way into Redis at once; 32 made about twice the
 * throughput of 8 in the ingest benchmark (docs/external-mqtt.md).
 */
const CONSUMERS = 32;
/** The shared-subscription group of every process of this program (MQTT 5.0 section 4.8.2). */
export const SHARE_GROUP = 'wv';
/** Device → server topics, each split between the group's consumers. */
export const CONSUMED_TOPICS = [
  ...['sales', 'status', 'config/ack', 'telemetry', 'cards/ack'].map((t) => `${TOPIC_ROOT}/machines/+/${t}`),
  `${TOPIC_ROOT}/provision/+/hello`,
].map((filter) => `$share/${SHARE_GROUP}/${filter}`);

const FIRST_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 30_000;
const IDENTITY_POLL_MS = 500;
/** How long the start waits for keys handed to the broker before it (docs/external-mqtt.md, "Start and reconnects"). */
const START_RELAY_WAIT_MS = 15_000;
/** How long the start waits for each consumer's first connection once the account is known to work. */
const CONSUMER_CONNECT_WAIT_MS = 120_000;
/** A pg advisory lock key: one process at a time hands identities to the broker, in the order they were made. */
const IDENTITY_LOCK = 7_284_310_001;

/**
 * The broker role with MQTT_MODE=external (docs/external-mqtt.md): machines connect to an existing MQTT broker or
 * cluster, and this process is its client.
 *
 * - It consumes the device topics through shared subscriptions, so that several processes split the traffic, and
 *   acknowledges a sale to the broker (PUBACK) only once the sale is durable in Redis: a process that dies before
 *   that leaves the message in its session on the broker, which delivers it again when the same client id comes
 *   back (MQTT 5.0 section 4.4). Its client ids are therefore stable: MQTT_CLIENT_ID, then `-0` … `-31`.
 * - It publishes what the device outbox carries (acks, configurations, card lists, assignments) on the broker.
 * - With mosquitto-dynsec it keeps the machines' identities on the broker from PostgreSQL.
 */
@Injectable()
export class ExternalMqttService implements OnApplicationBootstrap, BeforeApplicationShutdown, MqttHealth {
  private readonly logger = new Logger('ExternalMqtt');
  private readonly external: NonNullable<AppConfig['mqtt']['external']>;
  private consumers: MqttClient[] = [];
  private control?: MqttClient;
  private dynsec?: DynsecControl;
  private identities?: DynsecIdentities;
  private identityTimer?: NodeJS.Timeout;
  private identityRun: Promise<void> = Promise.resolve();
  private closing = false;
  private readonly outboxListener: OutboxListener;
  private readonly sales: SaleBatcher<SaleEnvelope>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly router: DeviceMessageRouter,
    private readonly provisioning: ProvisioningService,
    private readonly deviceKeys: DeviceKeyService,
    private readonly devices: DeviceService,
    private readonly identityChanges: BrokerIdentityChanges,
    private readonly dataSource: DataSource,
  ) {
    this.external = config.mqtt.external!;
    this.outboxListener = new OutboxListener(config, {
      send: (message) => this.send(message),
      // The broker ends the old key's sessions itself (dynamic security re-keys the client); here only the
      // remembered key is forgotten, which SessionRevocation already did in this process.
      revoke: (espIds) => espIds.forEach((espId) => this.deviceKeys.forget(espId)),
    });
    this.sales = new SaleBatcher<SaleEnvelope>({
      persist: (batch) => this.router.persistSales(batch),
      ...SALE_FLUSH,
      timeoutMs: 30_000,
      onFlushed: ({ size, error }) => {
        if (error !== undefined) {
          this.logger.error(
            `${size} sales not made durable (${(error as Error).message}): the broker delivers them again`,
          );
        }
      },
    });
  }

  /** Consumers subscribed on their current connection: only they take sales. */
  private readonly subscribed = new WeakSet<MqttClient>();

  mqttStatus(): 'up' | 'down' | 'disabled' {
    return this.consumers.length > 0 && this.consumers.every((c) => this.subscribed.has(c)) && this.control?.connected
      ? 'up'
      : 'down';
  }

  async onApplicationBootstrap(): Promise<void> {
    this.control = this.connect(`${this.external.clientId}-ctl`, true);
    await this.firstConnect(this.control);
    if (this.external.authMode === 'mosquitto-dynsec') {
      this.dynsec = new DynsecControl(this.control);
      await this.dynsec.start();
      this.identities = new DynsecIdentities(this.dynsec);
      await this.identities.ensureBaseline(this.external.username!);
      await this.repairIdentities();
      // Keys waiting from before the start usually reach the broker in a moment, before machines come; a large
      // backlog (a fleet provisioned while the broker was away) goes on in the background instead of holding
      // the start, since each command stalls Mosquitto (docs/external-mqtt.md, "Fleets of many thousands").
      await Promise.race([this.relayIdentities(), new Promise((r) => setTimeout(r, START_RELAY_WAIT_MS).unref())]);
      this.identityTimer = setInterval(() => void this.relayIdentities(), IDENTITY_POLL_MS);
      this.identityTimer.unref();
    }
    await this.outboxListener.start();
    for (let i = 0; i < CONSUMERS; i++) {
      const consumer = this.connect(`${this.external.clientId}-${i}`, false, (topic, payload, done) =>
        this.onPublish(consumer, topic, payload, done),
      );
      this.consumers.push(consumer);
    }
    // The control connection proved the address and the account: a consumer whose CONNACK is slow (a broker
    // busy rewriting its identities) is waited for while the client library tries again.
    await Promise.all(this.consumers.map((c) => this.connected(c, CONSUMER_CONNECT_WAIT_MS)));
    await Promise.all(this.consumers.map((c) => this.subscribe(c)));
    // Subscribed again at every reconnect, even to a session the broker kept: Mosquitto 2.0 restores a session from
    // its persistence file without its shared subscriptions, and a repeated SUBSCRIBE only replaces the same
    // subscription (MQTT 5.0 section 3.8.4).
    for (const consumer of this.consumers) {
      consumer.on('close', () => this.subscribed.delete(consumer));
      consumer.on('connect', () => {
        if (this.closing) return;
        this.subscribe(consumer).catch((error: Error) => {
          if (this.closing) return;
          this.logger.warn(`Could not subscribe again after a reconnect (${error.message}); reconnecting`);
          consumer.stream.destroy();
        });
      });
    }
    announce(
      this.config,
      `MQTT: consuming ${redact(this.external.url)} as ${this.external.clientId} (${CONSUMERS} connections, ${this.external.authMode})`,
    );
  }

  private connect(
    clientId: string,
    clean: boolean,
    onPublish?: (topic: string, payload: Buffer, done: (code: number) => void) => void,
  ): MqttClient {
    const options: IClientOptions = {
      clientId,
      clean,
      username: this.external.username,
      password: this.external.password,
      // MQTT 5: the client library leaves the PUBACK to this program only on 5 (customHandleAcks).
      protocolVersion: 5,
      // A consumer's session outlives the process (never expires), so that the sales the broker sent it and it
      // did not acknowledge wait there for the same client id (MQTT 5.0 section 3.1.2.11.2).
      // receiveMaximum: the broker sends the SUBACK of a restarted consumer only after the sales it redelivers
      // within this window, and each connection works one sale at a time anyway (MQTT 5.0 section 3.1.2.11.3).
      properties: clean ? {} : { sessionExpiryInterval: 0xffffffff, receiveMaximum: 8 },
      keepalive: 30,
      connectTimeout: 10_000,
      reconnectPeriod: FIRST_BACKOFF_MS,
      ...(onPublish
        ? {
            customHandleAcks: (topic: string, payload: Buffer, _packet: unknown, done: (code: number) => void) =>
              onPublish(topic, payload, done),
          }
        : {}),
    };
    const client = mqtt.connect(this.external.url, options);
    let lost = false;
    client.on('connect', () => {
      client.options.reconnectPeriod = FIRST_BACKOFF_MS;
      if (lost) this.logger.log(`Reconnected to the MQTT broker as ${clientId}`);
      lost = false;
    });
    client.on('close', () => {
      if (this.closing) return;
      if (!lost) this.logger.warn(`Lost the MQTT broker (${clientId}); reconnecting with backoff`);
      lost = true;
      // Doubles up to 30 s, with jitter, so that many processes do not come back in step.
      const next = Math.min(MAX_BACKOFF_MS, (client.options.reconnectPeriod ?? FIRST_BACKOFF_MS) * 2);
      client.options.reconnectPeriod = Math.round(next * (0.75 + Math.random() * 0.5));
    });
    client.on('error', (error) => {
      if (client.connected || lost) this.logger.debug(`MQTT ${clientId}: ${error.message}`);
    });
    return client;
  }

  private async subscribe(consumer: MqttClient): Promise<void> {
    // `resubscribe`: the client library would skip topics it subscribed before, and send nothing.
    const topics = Object.fromEntries(CONSUMED_TOPICS.map((topic) => [topic, { qos: 1 as const }]));
    await consumer.subscribeAsync(Object.assign(topics, { resubscribe: true }) as ISubscriptionMap);
    if (consumer.connected) this.subscribed.add(consumer);
  }

  /** Resolves at the client's next connect; a ConfigError after `waitMs` without one. */
  private connected(client: MqttClient, waitMs: number): Promise<void> {
    if (client.connected) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        client.off('connect', onConnect);
        client.end(true);
        reject(
          new ConfigError(
            `The MQTT broker at ${redact(this.external.url)} accepted this program's account but not its consumer ` +
              `${client.options.clientId} within ${waitMs / 1000} s. Check its connection limits and load.`,
          ),
        );
      }, waitMs);
      const onConnect = () => {
        clearTimeout(timer);
        resolve();
      };
      client.once('connect', onConnect);
    });
  }

  /** Resolves at the first CONNACK; an unreachable or refusing broker at start is one clear line. */
  private firstConnect(client: MqttClient): Promise<void> {
    return new Promise((resolve, reject) => {
      if (client.connected) return resolve();
      const settle = (reason?: string) => {
        client.off('connect', onConnect);
        client.off('error', onError);
        client.off('close', onClose);
        if (reason === undefined) return resolve();
        client.end(true);
        reject(
          new ConfigError(
            `Cannot use the MQTT broker at ${redact(this.external.url)} (${reason}). Start it, or check MQTT_BROKER_URL, ` +
              'MQTT_BROKER_USERNAME and MQTT_BROKER_PASSWORD.',
          ),
        );
      };
      const onConnect = () => settle();
      const onError = (error: Error) => settle(error.message);
      const onClose = () => settle('no answer');
      client.on('connect', onConnect);
      client.on('error', onError);
      client.on('close', onClose);
    });
  }

  /** Every publish from the broker: a sale is acknowledged once durable; the rest at once. */
  private onPublish(consumer: MqttClient, topic: string, payload: Buffer, done: (code: number) => void): void {
    const parsed = parseTopic(topic);
    const receivedAt = new Date();
    if (parsed.kind === 'sales') {
      this.sales.add({ espId: parsed.espId, topic, payload, receivedAt }).then(
        () => done(0),
        () => {
          // No PUBACK: dropping the connection makes the broker deliver the sale again when it comes back.
          if (!this.closing) consumer.stream.destroy();
        },
      );
      return;
    }
    done(0);
    const handled =
      parsed.kind === 'hello'
        ? this.onHello(parsed.mac, topic, payload, receivedAt)
        : parsed.kind === 'status' ||
            parsed.kind === 'config-ack' ||
            parsed.kind === 'telemetry' ||
            parsed.kind === 'cards-ack'
          ? this.onMachineMessage(parsed.kind, parsed.espId, topic, payload, receivedAt)
          : Promise.resolve(this.logger.warn(`Ignored a publish on ${topic}: not a device topic`));
    handled.catch((error: Error) => this.logger.warn(`Could not handle a publish on ${topic}: ${error.message}`));
  }

  private async onMachineMessage(
    kind: 'status' | 'config-ack' | 'telemetry' | 'cards-ack',
    espId: string,
    topic: string,
    payload: Buffer,
    receivedAt: Date,
  ): Promise<void> {
    await this.router.route({ kind, espId, clientId: espId, topic, payload, receivedAt });
    // The external broker tells no one of connects: a machine's online status (its first publish after a
    // connect) sets off what a connect does on the embedded broker (its configuration, its card list).
    if (kind === 'status' && statusPayloadSchema.safeParse(safeJson(payload)).data?.online === true) {
      await this.router.machineConnected(espId);
    }
  }

  private async onHello(mac: string, topic: string, payload: Buffer, receivedAt: Date): Promise<void> {
    await this.router.route({ kind: 'hello', mac, clientId: mac, topic, payload, receivedAt });
    // An assignment whose push was lost goes out again, retained, when its machine says hello.
    await this.provisioning.onProvisioningConnected(mac, (t, p) =>
      this.control!.publishAsync(t, p, { qos: 1, retain: true }).then(() => undefined),
    );
  }

  private send(message: OutboundMessage): void {
    this.control?.publish(message.topic, message.payload, { qos: message.qos, retain: message.retain }, (error) => {
      if (error) this.logger.warn(`Could not publish to ${message.topic}: ${error.message}`);
    });
  }

  /**
   * Drift between PostgreSQL and the broker, repaired at start: clients of machines that no longer exist are
   * deleted, lost roles are made again, and machines the broker does not know are named (their key is only
   * hashed here: a key rotation gives them one).
   */
  private async repairIdentities(): Promise<void> {
    const identities = this.identities!;
    const [clients, known, pending] = await Promise.all([
      identities.machineClients(),
      this.devices.listAllIds(),
      this.identityChanges.pendingEspIds(this.dataSource.manager),
    ]);
    const inDatabase = new Set(known);
    const onBroker = new Set(clients.map((c) => c.espId));
    const gone = clients.filter((c) => !inDatabase.has(c.espId)).map((c) => c.espId);
    const roleless = clients.filter((c) => inDatabase.has(c.espId) && !c.hasRole).map((c) => c.espId);
    const unknown = known.filter((espId) => !onBroker.has(espId) && !pending.has(espId));
    if (gone.length) await identities.remove(gone);
    if (roleless.length) await identities.restoreRoles(roleless);
    if (gone.length || roleless.length) {
      this.logger.log(`Broker identities repaired: ${gone.length} removed, ${roleless.length} roles restored`);
    }
    if (unknown.length) {
      this.logger.warn(
        `${unknown.length} machine(s) have no client on the MQTT broker and cannot connect until their device key ` +
          `is rotated (POST /api/devices/{espId}/rotate_key): ${unknown.slice(0, 10).join(', ')}` +
          (unknown.length > 10 ? ', …' : ''),
      );
    }
  }

  /** Hands new and rotated keys to the broker, oldest first; one process at a time. */
  private relayIdentities(): Promise<void> {
    this.identityRun = this.identityRun.then(() =>
      this.relayOnce().catch((error: Error) => {
        if (!this.closing) this.logger.warn(`Device identities not handed to the broker yet: ${error.message}`);
      }),
    );
    return this.identityRun;
  }

  private async relayOnce(): Promise<void> {
    if (this.closing || !this.control?.connected) return;
    let more = true;
    while (more && !this.closing) {
      more = await this.dataSource.transaction(async (m) => {
        const [{ locked }] = await m.query(`SELECT pg_try_advisory_xact_lock($1) AS locked`, [IDENTITY_LOCK]);
        if (!locked) return false;
        const changes = await this.identityChanges.oldest(m, 200);
        if (changes.length === 0) return false;
        const latest = new Map<string, string | null>();
        for (const change of changes) latest.set(change.espId, change.deviceKey);
        const unopened = [...latest].filter(([, key]) => key === null).map(([espId]) => espId);
        if (unopened.length) {
          this.logger.error(
            `The new device keys of ${unopened.join(', ')} were sealed under another JWT_SECRET and cannot reach the ` +
              'MQTT broker: rotate those keys',
          );
        }
        const keys = [...latest]
          .filter(([, key]) => key !== null)
          .map(([espId, deviceKey]) => ({ espId, deviceKey: deviceKey! }));
        await this.identities!.setKeys(keys);
        await this.identityChanges.remove(
          m,
          changes.map((c) => c.id),
        );
        return changes.length === 200;
      });
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.identityTimer);
    await this.identityRun;
    // Sales already taken are made durable and acknowledged; then the connections close. What the broker sends
    // after that stays in the sessions for the next start.
    await Promise.race([this.sales.drain(), new Promise((r) => setTimeout(r, 15_000))]);
    this.closing = true;
    this.outboxListener.flush();
    await new Promise((r) => setTimeout(r, 50));
    await Promise.all(this.consumers.map((c) => c.endAsync().catch(() => undefined)));
    await this.outboxListener.stop();
    this.dynsec?.close();
    await this.control?.endAsync().catch(() => undefined);
    this.router.close();
  }
}

/** The broker URL without its password, for log lines. */
function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]+@/, '//$1:***@');
}

function safeJson(payload: Buffer): unknown {
  try {
    return JSON.parse(payload.toString('utf8'));
  } catch {
    return undefined;
  }
}
