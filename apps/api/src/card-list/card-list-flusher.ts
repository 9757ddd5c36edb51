import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { DeviceOutbox } from '../device-outbox/device-outbox.js';
import { REDIS } from '../redis/redis.provider.js';
import { CardListPlanner, type PlannedMessage } from './card-list-planner.js';
import { CardListSignals } from './card-list-signals.js';

/** How often changes are collected into messages: a machine gets at most one delta per interval. */
export const CARD_LIST_FLUSH_MS = 2000;
/** Every this many flushes, every card is compared with what the lists carry. */
const RECONCILE_EVERY = 30;
/** One flush at a time across every worker process, so that a machine's versions go out in order. */
const FLUSH_LOCK = 'card-lists:flush-lock';
const FLUSH_LOCK_MS = 60_000;
/** Cards per Redis outbox message (a full list of 5,000 cards is about 400 KB). */
const CARDS_PER_OUTBOX_MESSAGE = 20_000;

const RELEASE_SCRIPT = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

export interface FlushReport {
  /** False when another process was flushing. */
  ran: boolean;
  messages: number;
}

/**
 * The worker role's side of the card lists (docs/device-protocol.md, "Card lists"): every
 * CARD_LIST_FLUSH_MS, one worker process takes what changed, plans the messages in one transaction
 * (new versions included) and, after the commit, publishes them through the device outbox.
 */
@Injectable()
export class CardListFlusher implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('CardLists');
  private timer?: NodeJS.Timeout;
  private running?: Promise<FlushReport>;
  private flushes = 0;
  private reconcileUnfinished = false;
  private stopped = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly planner: CardListPlanner,
    private readonly signals: CardListSignals,
    private readonly outbox: DeviceOutbox,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.flush(), CARD_LIST_FLUSH_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  /**
   * One flush; a call while this process is flushing gets that one instead. `reconcile` compares
   * every card with what the lists carry now, whatever the schedule, in a flush of its own.
   */
  async flush(options: { reconcile?: boolean } = {}): Promise<FlushReport> {
    if (options.reconcile) while (this.running) await this.running;
    if (this.stopped) return { ran: false, messages: 0 };
    this.running ??= this.flushOnce(options.reconcile ?? false)
      .catch((error: Error) => {
        this.logger.warn(`Card list flush failed (retried at the next one): ${error.message}`);
        return { ran: false, messages: 0 };
      })
      .finally(() => (this.running = undefined));
    return this.running;
  }

  private async flushOnce(forceReconcile: boolean): Promise<FlushReport> {
    const token = randomUUID();
    if ((await this.redis.set(FLUSH_LOCK, token, 'PX', FLUSH_LOCK_MS, 'NX')) !== 'OK')
      return { ran: false, messages: 0 };
    try {
      const reconcile = this.flushes++ % RECONCILE_EVERY === 0 || forceReconcile || this.reconcileUnfinished;
      const taken = await this.signals.take();
      const { messages, reconcileUnfinished } = await this.dataSource.transaction((m) =>
        this.planner.plan(m, { ...taken, reconcile }),
      );
      this.reconcileUnfinished = reconcileUnfinished;
      await this.publish(messages);
      await this.signals.settle();
      return { ran: true, messages: messages.length };
    } finally {
      await this.redis.eval(RELEASE_SCRIPT, 1, FLUSH_LOCK, token).catch(() => undefined);
    }
  }

  private async publish(messages: PlannedMessage[]): Promise<void> {
    let chunk: PlannedMessage[] = [];
    let weight = 0;
    const send = async () => {
      await this.outbox.publishMany(
        chunk.map((c) => ({ topic: c.topic, payload: c.payload, qos: 1, retain: c.retain })),
      );
      chunk = [];
      weight = 0;
    };
    for (const message of messages) {
      if (chunk.length > 0 && weight + message.weight > CARDS_PER_OUTBOX_MESSAGE) await send();
      chunk.push(message);
      weight += message.weight + 1;
    }
    if (chunk.length > 0) await send();
  }
}
