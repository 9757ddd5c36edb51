import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { createBroker, type DeviceIdentity, type WvBroker } from '@wv/broker';
import type { Redis } from 'ioredis';
import { SHARED_COUNTERS } from '../counters/shared-counters.js';
import { REDIS } from '../redis/redis.provider.js';
import { APP_CONFIG, ConfigError, type AppConfig } from '../config/app-config.js';
import { announce } from '../common/announce.js';
import { DeviceKeyService } from '../device/device-key.service.js';
import type { MqttHealth } from '../health/health.service.js';
import type { OutboundMessage } from '../device-outbox/device-outbox.js';
import { OutboxListener } from './outbox-listener.js';
import { DeviceMessageRouter } from './device-message-router.js';
import { MachineStatusService } from './machine-status.service.js';
import { ProvisioningService } from './provisioning.service.js';

/** How often a broker process reports itself alive (with its stats). */
const HEARTBEAT_MS = 5000;
/** A broker process silent this long is gone: its machines are offline (a stalled event loop is not that long). */
const BROKER_SILENCE_MS = 60_000;
/** How often each broker process looks for machines of processes that are gone. */
const ORPHAN_SWEEP_MS = 15_000;

/**
 * The broker role: runs the embedded Aedes broker (TCP on MQTT_PORT, WebSocket on MQTT_WS_PATH),
 * supplies its hooks, and forwards server → machine publishes that any process put in the outbox.
 */
@Injectable()
export class BrokerService implements OnApplicationBootstrap, BeforeApplicationShutdown, MqttHealth {
  private readonly logger = new Logger('MqttBroker');
  private broker?: WvBroker;
  private port?: number;
  private statsTimer?: NodeJS.Timeout;
  private orphanTimer?: NodeJS.Timeout;
  private reportedRefusals: Record<string, number> = {};
  /** The live sale waits already added to the shared histogram: per bucket, and their sum. */
  private reportedWaits = { counts: [] as number[], sumMs: 0 };
  private readonly processId = `${process.pid}-${Date.now().toString(36)}`;
  /** Open connections per machine on this broker (a takeover briefly has two). */
  private readonly connections = new Map<string, number>();
  private readonly outboxListener: OutboxListener;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly adapterHost: HttpAdapterHost,
    private readonly deviceKeys: DeviceKeyService,
    private readonly provisioning: ProvisioningService,
    private readonly status: MachineStatusService,
    private readonly router: DeviceMessageRouter,
    @Inject(REDIS) private readonly redis: Redis,
  ) {
    this.outboxListener = new OutboxListener(config, {
      send: (message) => this.forward(message),
      revoke: (espIds) => this.endRevokedSessions(espIds),
    });
  }

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
        persistSales: (batch) => this.router.persistSales(batch),
        onDeviceMessage: (message) => this.router.route(message, this.processId),
        onClientConnected: (identity) => this.onConnected(identity),
        onClientDisconnected: (identity) => this.onDisconnected(identity),
      },
    );
    // Seen alive by the other broker processes before any machine is recorded through this one; then the machines
    // of processes that are gone (this one's previous run among them) are offline until they come back.
    await this.publishStats();
    await this.sweepOrphans();
    await this.outboxListener.start();
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
    this.statsTimer = setInterval(() => void this.publishStats(), HEARTBEAT_MS);
    this.statsTimer.unref();
    this.orphanTimer = setInterval(() => void this.sweepOrphans().catch(() => undefined), ORPHAN_SWEEP_MS);
    this.orphanTimer.unref();
    announce(this.config, `MQTT listening on port ${this.port} (WebSocket at ${this.config.mqtt.wsPath})`);
  }

  private async onConnected(identity: DeviceIdentity): Promise<void> {
    if (identity.kind === 'provisioning') {
      // Only the pinned client gets here: the assignment waiting in PostgreSQL goes out on this broker.
      return this.provisioning.onProvisioningConnected(identity.mac, (topic, payload) =>
        this.broker ? this.broker.publish(topic, payload, { qos: 1, retain: true }) : Promise.resolve(),
      );
    }
    this.connections.set(identity.espId, (this.connections.get(identity.espId) ?? 0) + 1);
    await this.status.set(identity.espId, true, { via: this.processId });
    await this.router.machineConnected(identity.espId);
  }

  private async onDisconnected(identity: DeviceIdentity): Promise<void> {
    if (identity.kind !== 'machine') return;
    // A takeover by a new connection with the same client id leaves the machine online. Counted per
    // machine: scanning every connected client on each disconnect made a reconnect storm of N
    // machines cost N² (the connections benchmark drops 20,000 at once).
    const left = (this.connections.get(identity.espId) ?? 1) - 1;
    if (left > 0) this.connections.set(identity.espId, left);
    else this.connections.delete(identity.espId);
    if (left === 0) await this.status.set(identity.espId, false, { via: this.processId });
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

  /**
   * Marks offline the machines recorded online through broker processes that stopped reporting (killed, or this
   * process's previous run), and forgets those processes' metric entries (docs/scale-out.md).
   */
  private async sweepOrphans(): Promise<void> {
    const entries = await this.redis.hgetall(SHARED_COUNTERS.brokerConnected);
    const now = Date.now();
    const live: string[] = [];
    const gone: string[] = [];
    for (const [processId, raw] of Object.entries(entries)) {
      const at = Number((safeParse(raw) as { at?: number } | undefined)?.at ?? 0);
      (now - at < BROKER_SILENCE_MS ? live : gone).push(processId);
    }
    const changed = await this.status.markOrphansOffline([...new Set([...live, this.processId])]);
    if (changed > 0) this.logger.log(`${changed} machine(s) of broker processes that are gone are offline`);
    if (gone.length) await this.redis.hdel(SHARED_COUNTERS.brokerConnected, ...gone);
  }

  /**
   * Every broker process reports its connections, refusals and live sale waits to Redis for /api/metrics; also its
   * heartbeat.
   */
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
    const { boundsMs, counts, sumMs } = stats.sales.liveWait;
    counts.forEach((count, i) => {
      const delta = count - (this.reportedWaits.counts[i] ?? 0);
      if (delta > 0) pipeline.hincrby(SHARED_COUNTERS.brokerSaleWait, `le:${boundsMs[i] ?? '+Inf'}`, delta);
    });
    if (sumMs > this.reportedWaits.sumMs) {
      pipeline.hincrbyfloat(SHARED_COUNTERS.brokerSaleWait, 'sum', sumMs - this.reportedWaits.sumMs);
    }
    this.reportedWaits = { counts: [...counts], sumMs };
    await pipeline.exec().catch(() => undefined);
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.statsTimer);
    clearInterval(this.orphanTimer);
    await this.redis.hdel(SHARED_COUNTERS.brokerConnected, this.processId).catch(() => undefined);
    // First the broker (in-flight sales still reach Redis), then Redis and the database close.
    this.outboxListener.flush();
    await this.broker?.close();
    await this.outboxListener.stop();
    // The machines this broker just let go are recorded offline before the database pool closes.
    await this.router.close();
    await this.status.drain();
  }
}

function safeParse(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}
