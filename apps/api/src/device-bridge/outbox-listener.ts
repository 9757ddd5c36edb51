import { Logger } from '@nestjs/common';
import { parseTopic } from '@wv/contracts';
import type { Redis } from 'ioredis';
import type { AppConfig } from '../config/app-config.js';
import { createRedis, subscribe } from '../redis/redis-connection.js';
import { AckCoalescer } from './ack-coalescer.js';
import { parseRevocation, revocationChannel } from './session-revocation.js';
import { outboxChannel, type OutboundMessage } from '../device-outbox/device-outbox.js';

/**
 * The receiving end of the device outbox, in each process that talks to machines (the embedded broker, or the
 * consumer of an external broker): server → machine publishes and device-key revocations, from one Redis
 * subscriber connection so that a revocation stays ordered with the publishes after it. `sales/ack` messages
 * bound for one machine are merged first (AckCoalescer).
 */
export class OutboxListener {
  private readonly logger = new Logger('DeviceOutbox');
  private subscriber?: Redis;
  private readonly acks: AckCoalescer;

  constructor(
    private readonly config: AppConfig,
    private readonly handlers: { send(message: OutboundMessage): void; revoke(espIds: string[]): void },
  ) {
    this.acks = new AckCoalescer((topic, payload) => handlers.send({ topic, payload, qos: 1, retain: false }));
  }

  async start(): Promise<void> {
    this.subscriber = createRedis(this.config, {
      connectionName: 'wv-mqtt-outbox',
      maxRetriesPerRequest: null,
      subscriber: true,
    });
    // Both channels on one connection (over a Redis Cluster, in one slot): a revocation stays ordered with the publishes.
    await subscribe(this.subscriber, [outboxChannel(this.config), revocationChannel(this.config)], (channel, raw) => {
      if (channel === revocationChannel(this.config)) return this.handlers.revoke(parseRevocation(raw));
      let messages: OutboundMessage[];
      try {
        messages = JSON.parse(raw) as OutboundMessage[];
      } catch {
        this.logger.warn('Ignored an outbox message that is not JSON');
        return;
      }
      for (const message of messages) {
        const ack = message.qos === 1 && !message.retain && parseTopic(message.topic).kind === 'sales-ack';
        if (ack) this.acks.add(message.topic, (JSON.parse(message.payload) as { eventIds: string[] }).eventIds);
        else this.handlers.send(message);
      }
    });
  }

  /** Sends the acknowledgements still being merged. */
  flush(): void {
    this.acks.flush();
  }

  async stop(): Promise<void> {
    this.acks.flush();
    await this.subscriber?.quit().catch(() => undefined);
  }
}
