import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { channelName, publish } from '../redis/redis-connection.js';
import { REDIS } from '../redis/redis.provider.js';

export interface OutboundMessage {
  topic: string;
  payload: string;
  qos: 0 | 1;
  retain: boolean;
}

/**
 * The Redis channel of server → machine publishes (ioredis' keyPrefix does not apply to channels; over a Redis Cluster
 * it is sharded and hash-tagged, docs/redis-cluster.md).
 */
export const outboxChannel = (config: AppConfig) => channelName(config, 'mqtt-out');

/**
 * Server → machine publishes. Workers and API processes may run without the broker (APP_ROLES), so
 * every publish goes over Redis pub/sub to whichever processes run the broker role.
 */
@Injectable()
export class DeviceOutbox {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async publish(topic: string, payload: unknown, opts: { qos: 0 | 1; retain: boolean }): Promise<void> {
    await this.publishMany([{ topic, payload, ...opts }]);
  }

  /** Deletes the retained message of `topic` on every broker: an empty retained publish (MQTT 3.1.1 section 3.3.1.3). */
  async clearRetained(topic: string): Promise<void> {
    const batch: OutboundMessage[] = [{ topic, payload: '', qos: 1, retain: true }];
    await publish(this.redis, outboxChannel(this.config), JSON.stringify(batch));
  }

  /** Many publishes in one Redis round trip (a worker acknowledges the sales of many machines at once). */
  async publishMany(messages: { topic: string; payload: unknown; qos: 0 | 1; retain: boolean }[]): Promise<void> {
    if (messages.length === 0) return;
    const batch: OutboundMessage[] = messages.map((m) => ({
      topic: m.topic,
      payload: JSON.stringify(m.payload),
      qos: m.qos,
      retain: m.retain,
    }));
    await publish(this.redis, outboxChannel(this.config), JSON.stringify(batch));
  }
}
