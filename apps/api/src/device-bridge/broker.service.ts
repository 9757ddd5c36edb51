import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { createBroker, type DeviceIdentity, type DeviceMessage, type SaleEnvelope, type WvBroker } from '@wv/broker';
import { configAckPayloadSchema, parseTopic, statusPayloadSchema } from '@wv/contracts';
import { Redis } from 'ioredis';
import { SHARED_COUNTERS } from '../counters/shared-counters.js';
import { REDIS } from '../redis/redis.provider.js';
import { APP_CONFIG, ConfigError, type AppConfig } from '../config/app-config.js';
import { announce } from '../common/announce.js';
import { KeyedBatch } from '../common/keyed-batch.js';
import { DeviceKeyService } from '../device/device-key.service.js';
import type { MqttHealth } from '../health/health.service.js';
import { CardListDeviceService } from '../card-list/card-list-device.service.js';
import { MachineConfigService } from '../machine-config/machine-config.service.js';
import { SaleIngestQueue } from '../sale/sale-ingest.queue.js';
import { SequenceRecords } from '../sequence/sequence-records.js';
import { TelemetryQueue } from '../telemetry/telemetry.queue.js';
import { payloadToText } from '../sale/sale-ingest.types.js';
import { AckCoalescer } from './ack-coalescer.js';
import { DeviceOutbox, outboxChannel, type OutboundMessage } from '../device-outbox/device-outbox.js';
import { MachineStatusService } from './machine-status.service.js';
import { ProvisioningService } from './provisioning.service.js';
import { parseRevocation, revocationChannel } from './session-revocation.js';

/**
 * The broker role: runs the embedded Aedes broker (TCP on MQTT_PORT, WebSocket on MQTT_WS_PATH),
 * supplies its hooks, and forwards server → machine publishes that any process put in the outbox.
 */
@Injectable()
export class BrokerService implements OnApplicationBootstrap, BeforeApplicationShutdown, MqttHealth {
  private readonly logger = new Logger('MqttBroker');
  private broker?: WvBroker;
  private subscriber?: Redis;
  private port?: number;
  private statsTimer?: NodeJS.Timeout;
  private reportedRefusals: Record<string, number> = {};
  private readonly processId = `${process.pid}-${Date.now().toString(36)}`;
  /** Open connections per machine on this broker (a takeover briefly has two). */
  private readonly connections = new Map<string, number>();
  private readonly acks = new AckCoalescer((topic, payload) => this.forward({ topic, payload, qos: 1, retain: false }));

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly adapterHost: HttpAdapterHost,
    private readonly deviceKeys: DeviceKeyService,
    private readonly provisioning: ProvisioningService,
    private readonly queue: SaleIngestQueue,
    private readonly status: MachineStatusService,
    private readonly machineConfig: MachineConfigService,
    private readonly outbox: DeviceOutbox,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly sequenceRecords: SequenceRecords,
    private readonly cardLists: CardListDeviceService,
    private readonly telemetry: TelemetryQueue,
  ) {}

  mqttStatus(): 'up' | 'down' | 'disabled' {
    return this.broker && this.port !== undefined ? 'up' : 'down';
  }

  get mqttPort(): number | undefined {
    return this.port;
  }

  stats() {
    return this.broker?.stats();
  }

  async onApplicationBootstrap(): Promise<void> {
    const log = this.logger;
    this.broker = await createBroker(
      {
        connectionsPerSecondPerAddress: this.config.mqttConnectRate,
        backfillPaceMs: this.config.backfillPaceMs,
        logger: {
          info: (msg, fields) => log.debug(`${msg}${fields ? ' ' + JSON.stringify(fields) : ''}`),
          warn: (msg, fields) => log.warn(`${msg}${fields ? ' ' + JSON.stringify(fields) : ''}`),
          error: (msg, fields) => log.error(`${msg}${fields ? ' ' + JSON.stringify(fields) : ''}`),
        },
      },
      {
        authenticateMachine: (espId, key) => this.deviceKeys.verify(espId, key),
        knownMachineKey: (espId, key) => this.deviceKeys.verifyKnown(espId, key),
        verifyProvisioningSecret: (mac, password, connection) =>
          this.provisioning.verifySecret(mac, password, connection),
        persistSales: (batch) => this.persist(batch),
        onDeviceMessage: (message) => this.onDeviceMessage(message),
        onClientConnected: (identity) => this.onConnected(identity),
        onClientDisconnected: (identity) => this.onDisconnected(identity),
      },
    );
    await this.status.markAllOffline();
    await this.listenOutbox();
    try {
      this.port = await this.broker.listen(this.config.mqtt.port);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new ConfigError(
        code === 'EADDRINUSE'
          ? `Port ${this.config.mqtt.port} is taken. Set MQTT_PORT to a free port (0 picks one).`
          : `Cannot listen for MQTT on port ${this.config.mqtt.port} (${(error as Error).message}). Set MQTT_PORT.`,
      );
    }
    const httpServer = this.adapterHost.httpAdapter?.getHttpServer();
    if (httpServer) await this.broker.attachWebSocket(httpServer, this.config.mqtt.wsPath);
    this.statsTimer = setInterval(() => void this.publishStats(), 5000);
    this.statsTimer.unref();
    announce(this.config, `MQTT listening on port ${this.port} (WebSocket at ${this.config.mqtt.wsPath})`);
  }

  /** Durable in Redis before the PUBACK: one addBulk for the whole micro-batch. */
  private persist(batch: SaleEnvelope[]): Promise<void> {
    return this.queue.enqueue(
      batch.map((s) => ({
        espId: s.espId,
        topic: s.topic,
        payload: payloadToText(s.payload),
        receivedAt: s.receivedAt.toISOString(),
        source: 'mqtt' as const,
      })),
    );
  }

  private async onDeviceMessage(message: DeviceMessage): Promise<void> {
    if (message.kind === 'hello') return this.provisioning.onHello(message);
    // Parsed and stored by the workers (docs/alarms.md, "Telemetry"); the broker only batches it.
    if (message.kind === 'telemetry') {
      return this.telemetry.add({
        espId: message.espId,
        payload: payloadToText(message.payload),
        receivedAt: message.receivedAt.toISOString(),
      });
    }
    const json = safeJson(message.payload);
    if (message.kind === 'status') {
      const status = statusPayloadSchema.safeParse(json);
      if (status.success) await this.status.set(message.espId, status.data.online, { firmware: status.data.firmware });
      // The sales still in the machine's flash, shown by GET /machines/{espId}/sync.
      if (status.success && status.data.queued !== undefined) {
        await this.sequenceRecords.setQueued(message.espId, status.data.queued);
      }
      return;
    }
    if (message.kind === 'config-ack') {
      const ack = configAckPayloadSchema.safeParse(json);
      if (ack.success) await this.machineConfig.applyAck(message.espId, ack.data.version);
    }
    if (message.kind === 'cards-ack') return this.cardLists.onAck(message.espId, json);
  }

  private async onConnected(identity: DeviceIdentity): Promise<void> {
    if (identity.kind === 'provisioning') {
      // Only the pinned client gets here: the assignment waiting in PostgreSQL goes out on this broker.
      return this.provisioning.onProvisioningConnected(identity.mac, (topic, payload) =>
        this.broker ? this.broker.publish(topic, payload, { qos: 1, retain: true }) : Promise.resolve(),
      );
    }
    this.connections.set(identity.espId, (this.connections.get(identity.espId) ?? 0) + 1);
    await this.status.set(identity.espId, true);
    await this.connectEffects.add(identity.espId, true);
  }

  /** What a machine's connect sets off, for all machines that connected within a few milliseconds. */
  private readonly connectEffects = new KeyedBatch<string, true>(
    async (batch) => {
      const espIds = [...batch.keys()];
      await this.machineConfig.republishMany(espIds);
      // A machine that missed card list versions while away gets the full list (docs/device-protocol.md, "Card lists").
      await this.cardLists.onMachinesConnected(espIds);
      await this.provisioning.onMachinesConnected(espIds);
    },
    { lingerMs: 25, maxBatch: 1000 },
  );

  private async onDisconnected(identity: DeviceIdentity): Promise<void> {
    if (identity.kind !== 'machine') return;
    // A takeover by a new connection with the same client id leaves the machine online. Counted per
    // machine: scanning every connected client on each disconnect made a reconnect storm of N
    // machines cost N² (the connections benchmark drops 20,000 at once).
    const left = (this.connections.get(identity.espId) ?? 1) - 1;
    if (left > 0) this.connections.set(identity.espId, left);
    else this.connections.delete(identity.espId);
    if (left === 0) await this.status.set(identity.espId, false);
  }

  private async listenOutbox(): Promise<void> {
    this.subscriber = new Redis(this.config.redisUrl, { connectionName: 'wv-mqtt-outbox', maxRetriesPerRequest: null });
    // One connection for both channels keeps revocations in order with the publishes after them.
    await this.subscriber.subscribe(outboxChannel(this.config), revocationChannel(this.config));
    this.subscriber.on('message', (channel: string, raw: string) => {
      if (channel === revocationChannel(this.config)) return this.endRevokedSessions(parseRevocation(raw));
      for (const message of JSON.parse(raw) as OutboundMessage[]) {
        const ack = message.qos === 1 && !message.retain && parseTopic(message.topic).kind === 'sales-ack';
        if (ack) this.acks.add(message.topic, (JSON.parse(message.payload) as { eventIds: string[] }).eventIds);
        else this.forward(message);
      }
    });
  }

  /** A rotated key: its sessions on this broker end before anything published after the rotation. */
  private endRevokedSessions(espIds: string[]): void {
    for (const espId of espIds) {
      this.deviceKeys.forget(espId);
      const closed = this.broker?.disconnectMachine(espId) ?? 0;
      if (closed > 0) this.logger.log(`Closed ${closed} MQTT session(s) of ${espId}: its device key was revoked`);
    }
  }

  private forward(message: OutboundMessage): void {
    this.broker
      ?.publish(message.topic, message.payload, { qos: message.qos, retain: message.retain })
      .catch((error: Error) => this.logger.warn(`Could not publish to ${message.topic}: ${error.message}`));
  }

  /** Every broker process reports its connections and refusals to Redis for /api/metrics. */
  private async publishStats(): Promise<void> {
    const stats = this.broker?.stats();
    if (!stats) return;
    const pipeline = this.redis.pipeline();
    pipeline.hset(
      SHARED_COUNTERS.brokerConnected,
      this.processId,
      JSON.stringify({ connected: stats.connections.current, at: Date.now() }),
    );
    for (const [reason, count] of Object.entries(stats.refusals)) {
      const delta = count - (this.reportedRefusals[reason] ?? 0);
      if (delta > 0) pipeline.hincrby(SHARED_COUNTERS.brokerRefusals, reason, delta);
    }
    this.reportedRefusals = { ...stats.refusals };
    await pipeline.exec().catch(() => undefined);
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.statsTimer);
    await this.redis.hdel(SHARED_COUNTERS.brokerConnected, this.processId).catch(() => undefined);
    // First the broker (in-flight sales still reach Redis), then Redis and the database close.
    this.acks.flush();
    await this.broker?.close();
    await this.subscriber?.quit().catch(() => undefined);
    // The machines this broker just let go are recorded offline before the database pool closes.
    this.connectEffects.close();
    await this.status.drain();
  }
}

function safeJson(payload: Buffer): unknown {
  try {
    return JSON.parse(payload.toString('utf8'));
  } catch {
    return undefined;
  }
}
