import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { DomainEvents } from '../events/domain-events.js';
import { REDIS } from '../redis/redis.provider.js';

/** Redis sets (under REDIS_PREFIX) of what the next flush must look at. */
const CHANGED_CARDS = 'card-lists:cards';
const MACHINES_TO_CHECK = 'card-lists:machines';

/**
 * Moves the waiting sets aside for one flush and returns them. A set already aside (a flush that died
 * before `settle`) is merged with the new one, so that nothing taken is lost.
 */
const TAKE_SCRIPT = `
local out = {}
for i, key in ipairs(KEYS) do
  local taking = key .. ':taking'
  if redis.call('exists', key) == 1 then
    redis.call('sunionstore', taking, taking, key)
    redis.call('del', key)
  end
  out[i] = redis.call('smembers', taking)
end
return out`;

/**
 * What changed for the card lists, collected from every process role: card sales commit in the
 * worker, blocks and limits in the api role, connections and acknowledgements in the broker. Each
 * is added to a Redis set; the flusher (worker role) takes the sets every few seconds, so that a
 * burst of sales on one card becomes one entry, and one message per machine
 * (docs/device-protocol.md, "Card lists").
 */
@Injectable()
export class CardListSignals implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('CardLists');
  private readonly unsubscribe: (() => void)[] = [];

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly events: DomainEvents,
  ) {}

  onModuleInit(): void {
    this.unsubscribe.push(
      this.events.on('sales.committed', ({ sales }) => {
        const cardIds = [...new Set(sales.flatMap((s) => (s.kind === 'card' && s.cardId ? [s.cardId] : [])))];
        return this.cardsChanged(cardIds);
      }),
      this.events.on('cards.changed', ({ cardIds }) => this.cardsChanged(cardIds)),
    );
  }

  onModuleDestroy(): void {
    this.unsubscribe.forEach((off) => off());
  }

  /**
   * Cards (by card id, or by row id) whose status, balance or limit changed. A failure is only logged:
   * the periodic reconciliation of the flusher finds the change anyway.
   */
  async cardsChanged(cardIds: string[]): Promise<void> {
    if (cardIds.length === 0) return;
    await this.redis
      .sadd(CHANGED_CARDS, ...cardIds)
      .catch((error: Error) => this.logger.warn(`Could not note ${cardIds.length} changed card(s): ${error.message}`));
  }

  /**
   * Machines that may hold an older list than the newest (they connected, or went back), many at once (a reconnect
   * storm): one command, not one round trip each.
   */
  async checkMachines(espIds: string[]): Promise<void> {
    if (espIds.length === 0) return;
    await this.redis
      .sadd(MACHINES_TO_CHECK, ...espIds)
      .catch((error: Error) =>
        this.logger.warn(`Could not note card list check of ${espIds.length} machine(s): ${error.message}`),
      );
  }

  /** For one flush: the changed cards and the machines to check, kept aside until `settle`. */
  async take(): Promise<{ cardIds: string[]; espIds: string[] }> {
    const [cardIds, espIds] = (await this.redis.eval(TAKE_SCRIPT, 2, CHANGED_CARDS, MACHINES_TO_CHECK)) as [
      string[],
      string[],
    ];
    return { cardIds, espIds };
  }

  /** The flush that took the sets committed and published: they are done. */
  async settle(): Promise<void> {
    await this.redis.del(`${CHANGED_CARDS}:taking`, `${MACHINES_TO_CHECK}:taking`);
  }
}
