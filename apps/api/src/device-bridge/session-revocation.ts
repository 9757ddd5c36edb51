import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { DomainEvents } from '../events/domain-events.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { DeviceKeyService } from '../device/device-key.service.js';
import { channelName, createRedis, publish, subscribe } from '../redis/redis-connection.js';
import { REDIS } from '../redis/redis.provider.js';

/**
 * The Redis channel of device revocations (ioredis' keyPrefix does not apply to channels; over a Redis Cluster it is
 * sharded, in the device outbox's slot, docs/redis-cluster.md).
 */
export const revocationChannel = (config: AppConfig) => channelName(config, 'device-revoke');

/** The ESP IDs named by one revocation message; anything malformed names none. */
export function parseRevocation(raw: string): string[] {
  try {
    const { espIds } = JSON.parse(raw) as { espIds?: unknown };
    return Array.isArray(espIds) ? espIds.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * Ends what an old device key still holds once its key is rotated: every process forgets the key it
 * remembered, and every broker process closes the machine's live MQTT sessions (BrokerService listens
 * on the same channel). Processes run apart (APP_ROLES), so the message goes over Redis pub/sub.
 *
 * Ordering: the revocation is published on the shared Redis connection, the one the device outbox
 * publishes on, and each broker receives both channels on one subscriber connection. Redis delivers
 * the messages of one publishing connection in order, so a configuration published after a rotation
 * (a new Wi-Fi password) reaches a broker only after that broker closed the old sessions.
 */
@Injectable()
export class SessionRevocation implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(SessionRevocation.name);
  private subscriber?: Redis;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly events: DomainEvents,
    private readonly deviceKeys: DeviceKeyService,
  ) {}

  async onModuleInit(): Promise<void> {
    // Synchronous on purpose: the PUBLISH is queued before anything the caller publishes next.
    this.events.on('device.key-rotated', ({ espId }) => this.revoke([espId]));
    // Only api and broker processes verify device keys.
    if (this.config.roles.has('api') || this.config.roles.has('broker')) await this.listen();
  }

  /** Forgets the keys here at once, and tells every other process to forget them and end their sessions. */
  revoke(espIds: string[]): void {
    for (const espId of espIds) this.deviceKeys.forget(espId);
    publish(this.redis, revocationChannel(this.config), JSON.stringify({ espIds })).catch((error: Error) =>
      this.logger.error(
        `Could not announce the revocation of ${espIds.join(', ')} (${error.message}): sessions with the old key ` +
          'stay connected on other processes until they reconnect',
      ),
    );
  }

  private async listen(): Promise<void> {
    const subscriber = createRedis(this.config, {
      connectionName: 'wv-device-revoke',
      maxRetriesPerRequest: null,
      subscriber: true,
    });
    this.subscriber = subscriber;
    // The ready after a reconnect: messages sent while it was away are lost, so trust nothing remembered.
    let connectedBefore = false;
    subscriber.on('ready', () => {
      if (connectedBefore) this.deviceKeys.forgetAll();
      connectedBefore = true;
    });
    subscriber.on('error', () => undefined); // ioredis reconnects by itself; the main client reports outages
    await subscribe(subscriber, [revocationChannel(this.config)], (_channel: string, raw: string) => {
      for (const espId of parseRevocation(raw)) this.deviceKeys.forget(espId);
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.subscriber?.quit().catch(() => undefined);
  }
}
