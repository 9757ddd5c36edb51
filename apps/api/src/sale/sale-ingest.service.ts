import { Inject, Injectable, Logger } from '@nestjs/common';
import { buildSalesAckTopic } from '@wv/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { DomainEvents } from '../events/domain-events.js';
import { DeviceOutbox } from '../device-outbox/device-outbox.js';
import { LedgerService, type LedgerInput, type LockedCard } from '../ledger/ledger.service.js';
import { toCents } from '../money/money.js';
import { SequenceTracker } from '../sequence/sequence-tracker.js';
import { parseSalesPayload } from './sale-parser.js';
import { escapeNul } from '../common/json-limits.js';
import type { Redis } from 'ioredis';
import { SHARED_COUNTERS } from '../counters/shared-counters.js';
import { REDIS } from '../redis/redis.provider.js';
import type { RawSalesMessage } from './sale-ingest.types.js';
import { SaleRepository, type DeadLetterInput, type InsertedSale, type SaleRow } from './sale.repository.js';

/** A message of a queued job: the job and the message's place in it name its dead letters on every retry. */
export interface QueuedSalesMessage {
  message: RawSalesMessage;
  batchKey: string;
  index: number;
}

/**
 * The data itself was refused: SQLSTATE class 22 (data exception, e.g. a numeric overflow) or 23
 * (integrity constraint), or the stack overflowed walking it. Retrying such a batch cannot help.
 */
function isRefusedData(error: unknown): boolean {
  if (error instanceof RangeError) return true;
  const e = error as { code?: unknown; driverError?: { code?: unknown } } | undefined;
  const code = String(e?.driverError?.code ?? e?.code ?? '');
  return /^2[23][0-9A-Z]{3}$/.test(code);
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

export interface IngestResult {
  inserted: InsertedSale[];
  duplicates: number;
  deadLettered: number;
}

/**
 * Writes one queued batch to PostgreSQL in one transaction: the sales (exactly once by
 * `(esp_id, event_id)`), their daily and monthly rollups, the card debits with their ledger entries,
 * and the dead letters. Only after the commit are the machines told (`sales/ack`).
 */
@Injectable()
export class SaleIngestService {
  private readonly logger = new Logger(SaleIngestService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly sales: SaleRepository,
    private readonly ledger: LedgerService,
    private readonly sequences: SequenceTracker,
    private readonly outbox: DeviceOutbox,
    private readonly events: DomainEvents,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  /** Shared across processes through Redis, so /api/metrics of any API process sees the workers' work. */
  private async countForMetrics(inserted: number, duplicates: number, deadLetters: number): Promise<void> {
    const pipeline = this.redis.pipeline();
    if (inserted) pipeline.incrby(SHARED_COUNTERS.salesIngested, inserted);
    if (duplicates) pipeline.incrby(SHARED_COUNTERS.salesDuplicates, duplicates);
    if (deadLetters) pipeline.incrby(SHARED_COUNTERS.deadLetters, deadLetters);
    await pipeline.exec().catch(() => undefined);
  }

  /**
   * When the database refuses the data itself (not an outage), one machine's message must not keep
   * the other machines' acknowledged sales out of a shared batch: the messages are then written one
   * by one, and one that still fails is kept as a dead letter with the database's reason.
   */
  async ingestBatch(messages: RawSalesMessage[], batchKey: string): Promise<IngestResult> {
    return this.ingestQueued(messages.map((message, index) => ({ message, batchKey, index })));
  }

  /** Messages of one or several queued jobs, written in one transaction (see ingestBatch). */
  async ingestQueued(items: QueuedSalesMessage[]): Promise<IngestResult> {
    try {
      return await this.write(items);
    } catch (error) {
      if (!isRefusedData(error) || items.length === 0) throw error;
      const keys = [...new Set(items.map((item) => item.batchKey))].join(', ');
      this.logger.warn(
        `Sales batch ${keys} holds data the database refuses (${errorText(error)}): writing it message by message`,
      );
      const total: IngestResult = { inserted: [], duplicates: 0, deadLettered: 0 };
      for (const item of items) {
        const result = await this.write([item]).catch((e: unknown) => {
          if (!isRefusedData(e)) throw e;
          return this.keepRefused(item, e);
        });
        total.inserted.push(...result.inserted);
        total.duplicates += result.duplicates;
        total.deadLettered += result.deadLettered;
      }
      return total;
    }
  }

  /** A message the database will not store, kept whole as a dead letter (and acknowledged, as rejections are). */
  private async keepRefused(item: QueuedSalesMessage, error: unknown): Promise<IngestResult> {
    const { message, batchKey, index } = item;
    const payload = message.payload.includes('\u0000')
      ? `base64:${Buffer.from(message.payload, 'utf8').toString('base64')}`
      : message.payload;
    await this.dataSource.transaction((m) =>
      this.sales.insertDeadLetters(m, [
        {
          espId: message.espId,
          topic: message.topic,
          reason: escapeNul(`the database refused this payload: ${errorText(error)}`),
          payload,
          receivedAt: new Date(message.receivedAt),
          deliveryKey: `${batchKey}:${index}:refused`,
        },
      ]),
    );
    const { sales, rejections } = parseSalesPayload(message.espId, message.payload, new Date(message.receivedAt));
    const eventIds = [...sales.map((s) => s.eventId), ...rejections.flatMap((r) => (r.eventId ? [r.eventId] : []))];
    if (eventIds.length) {
      await this.outbox.publishMany([
        { topic: buildSalesAckTopic(message.espId), payload: { eventIds }, qos: 1, retain: false },
      ]);
    }
    await this.countForMetrics(0, 0, 1);
    this.logger.warn(`Dead-lettered a sales payload of ${message.espId} that the database refused`);
    return { inserted: [], duplicates: 0, deadLettered: 1 };
  }

  private async write(messages: QueuedSalesMessage[]): Promise<IngestResult> {
    const rows = new Map<string, SaleRow>();
    const deadLetters: DeadLetterInput[] = [];
    const acks = new Map<string, Set<string>>();
    const ack = (espId: string, eventId: string) =>
      (acks.get(espId) ?? acks.set(espId, new Set()).get(espId)!).add(eventId);

    messages.forEach(({ message, batchKey, index: m }) => {
      const receivedAt = new Date(message.receivedAt);
      const { sales, rejections } = parseSalesPayload(message.espId, message.payload, receivedAt);
      for (const sale of sales) {
        const key = `${sale.espId}\u0000${sale.eventId}`;
        if (!rows.has(key)) {
          rows.set(key, {
            espId: sale.espId,
            eventId: sale.eventId,
            kind: sale.kind,
            price: sale.price,
            volume: sale.volume,
            waterType: sale.waterType,
            cardId: sale.kind === 'card' ? (sale.cardId ?? null) : null,
            soldAt: sale.soldAt,
            receivedAt,
            source: message.source,
            seq: sale.seq ?? null,
            offline: sale.offline ?? false,
            dispensed: sale.dispensed ?? null,
          });
        }
        ack(sale.espId, sale.eventId);
      }
      rejections.forEach((r, i) => {
        deadLetters.push({
          espId: message.espId,
          topic: message.topic,
          reason: r.index === null ? r.reason : `item ${r.index}: ${r.reason}`,
          payload: r.raw,
          receivedAt,
          deliveryKey: `${batchKey}:${m}:${i}`,
        });
        // Kept in the dead-letter table: the machine may forget it.
        if (r.eventId) ack(message.espId, r.eventId);
      });
    });

    const inserted = await this.dataSource.transaction(async (m) => {
      // The cards first, locked: an unknown card's sale is stored with its flag in the insert itself
      // (an update of a third of a batch's fresh rows afterwards cost as much as the insert), and so
      // is a sale on a card that does not work at the selling machine: another tenant's machine must
      // not spend a card by naming its ID (docs/security.md). One query for the whole batch.
      const cardIds = new Set<string>();
      const sellers = new Set<string>();
      for (const r of rows.values()) {
        if (r.kind !== 'card' || !r.cardId) continue;
        cardIds.add(r.cardId);
        sellers.add(r.espId);
      }
      const locked = await this.ledger.lockCards(m, [...cardIds], [...sellers]);
      const cards = new Map(locked.map((c) => [c.cardId, c]));
      for (const r of rows.values()) {
        if (r.kind !== 'card' || !r.cardId) continue;
        const card = cards.get(r.cardId);
        if (!card) r.flag = 'unknown_card';
        else if (!card.worksAt.has(r.espId)) r.flag = 'foreign_card';
      }
      const inserted = await this.sales.insertBatch(m, [...rows.values()], this.config.timezone);
      await this.debitCards(m, inserted, cards);
      await this.sales.insertDeadLetters(m, deadLetters);
      // Only the rows really inserted move a machine's seq: a duplicate delivery changes nothing. Last,
      // so that the machines' seq rows stay locked only until the commit right after.
      await this.sequences.track(m, inserted);
      return inserted;
    });

    await this.outbox.publishMany(
      [...acks].map(([espId, eventIds]) => ({
        topic: buildSalesAckTopic(espId),
        payload: { eventIds: [...eventIds] },
        qos: 1 as const,
        retain: false,
      })),
    );
    if (inserted.length > 0) this.events.emit('sales.committed', { sales: inserted });
    await this.countForMetrics(inserted.length, rows.size - inserted.length, deadLetters.length);
    if (deadLetters.length > 0) this.logger.warn(`Dead-lettered ${deadLetters.length} invalid sale payload(s)`);
    return { inserted, duplicates: rows.size - inserted.length, deadLettered: deadLetters.length };
  }

  /**
   * A card sale spends the card's balance; a sale is never refused after the water
   * was dispensed, so an unknown card or an overdraft is stored and flagged, and an overdraft still
   * debits (the balance goes negative) so that every balance equals the sum of its entries. A sale on
   * a card that does not work at the selling machine (flagged `foreign_card`) debits nothing
   * (docs/rest-api.md, "Details"; docs/decisions/0003-money-ledger.md). A blocked card and one past
   * its daily limit are debited too and flagged `blocked_card` / `over_limit`; a short-dispensed sale
   * gets the undelivered share of its price back as a `refund` entry (docs/device-protocol.md,
   * "Sales"). Everything here follows the rows really inserted, so a redelivered sale is neither
   * debited nor refunded twice.
   */
  private async debitCards(m: EntityManager, inserted: InsertedSale[], cards: Map<string, LockedCard>): Promise<void> {
    const charged = inserted.filter((sale) => {
      const card = sale.kind === 'card' && sale.cardId ? cards.get(sale.cardId) : undefined;
      return card !== undefined && card.worksAt.has(sale.espId);
    });
    const litres = await this.litresSoFar(m, charged, cards);
    const flags: { saleId: string; soldAt: Date; flag: 'overdrawn' | 'blocked_card' | 'over_limit' }[] = [];
    const entries: LedgerInput[] = [];
    const debited = new Set<LockedCard>();
    // `inserted` is in time order, so the daily running total follows the sales' times.
    for (const sale of charged) {
      const card = cards.get(sale.cardId!)!;
      debited.add(card);
      const price = toCents(sale.price);
      const refund = shortDispenseRefund(price, sale.volume, sale.dispensed);
      const before = card.balanceCents;
      card.balanceCents -= price;
      entries.push(this.cardEntry(card, 'sale', -price, sale.id));
      if (refund > 0) {
        card.balanceCents += refund;
        entries.push(this.cardEntry(card, 'refund', refund, sale.id));
      }
      const day = `${card.cardId}|${sale.localDate}`;
      const dayMl = (litres.get(day) ?? 0) + toMillilitres(sale.volume);
      litres.set(day, dayMl);
      // One flag per sale, the first that applies (docs/device-protocol.md, "Sales").
      if (card.status === 'blocked' && card.blockedAt !== null && card.blockedAt <= sale.soldAt) {
        flags.push({ saleId: sale.id, soldAt: sale.soldAt, flag: 'blocked_card' });
      } else if (before < price - refund) {
        flags.push({ saleId: sale.id, soldAt: sale.soldAt, flag: 'overdrawn' });
      } else if (card.dailyLimitMl !== null && dayMl > card.dailyLimitMl) {
        flags.push({ saleId: sale.id, soldAt: sale.soldAt, flag: 'over_limit' });
      }
    }
    await this.ledger.setCardBalances(m, [...debited]);
    await this.ledger.insertEntries(m, entries);
    await this.sales.setFlags(m, flags);
  }

  private cardEntry(card: LockedCard, kind: 'sale' | 'refund', amountCents: number, saleId: string): LedgerInput {
    return {
      accountType: 'card',
      accountId: card.id,
      kind,
      amountCents,
      balanceAfterCents: card.balanceCents,
      reference: saleId,
      actorId: null,
    };
  }

  /** Litres already charged on the sales' local days to the cards that have a daily limit. */
  private litresSoFar(m: EntityManager, charged: InsertedSale[], cards: Map<string, LockedCard>) {
    const limited = charged.filter((s) => cards.get(s.cardId!)!.dailyLimitMl !== null);
    if (limited.length === 0) return Promise.resolve(new Map<string, number>());
    return this.sales.litresCharged(
      m,
      [...new Set(limited.map((s) => s.cardId!))],
      [...new Set(limited.map((s) => s.localDate))],
      charged.map((s) => s.id),
    );
  }
}

/** Litres as whole millilitres (volumes have at most 3 decimals). */
function toMillilitres(litres: string): number {
  return Math.round(Number(litres) * 1000);
}

/**
 * A card sale whose flow meter measured under 90 % of its volume gives back the undelivered share of
 * its price, in whole cents rounded down (docs/device-protocol.md, "Sales"). Exact integer arithmetic.
 */
export function shortDispenseRefund(priceCents: number, volume: string, dispensed: string | null): number {
  if (dispensed === null) return 0;
  const volumeMl = BigInt(toMillilitres(volume));
  const dispensedMl = BigInt(toMillilitres(dispensed));
  if (volumeMl === 0n || dispensedMl * 10n >= volumeMl * 9n) return 0;
  return Number((BigInt(priceCents) * (volumeMl - dispensedMl)) / volumeMl);
}
