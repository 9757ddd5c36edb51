import { Injectable } from '@nestjs/common';
import type { CardHistoryRow, CardStatus, SaleFlag } from '@wv/contracts';
import { DataSource, type EntityManager, type SelectQueryBuilder, type ObjectLiteral } from 'typeorm';
import type { Actor } from '../common/actor.js';
import { scopeDevices } from '../common/scope.js';
import { centsToDecimal, toCents } from '../money/money.js';

export interface NewCard {
  cardId: string;
  espId: string;
  firstName: string;
  lastName: string;
  phoneNumber: string | null;
  cardType: string;
  balanceCents: number;
  registeredBy: string;
}

export interface StoredCard {
  id: string;
  cardId: string;
  espId: string;
  firstName: string;
  lastName: string;
  phoneNumber: string | null;
  cardType: string;
  balanceCents: number;
  dateRegistered: Date;
  status: CardStatus;
  /** Litres per local day, numeric text, or null for no limit. */
  dailyLimitLitres: string | null;
  blockedAt: Date | null;
  blockedReason: string | null;
  /** The card that took this one's holder and balance. */
  replacedBy: string | null;
}

export interface CardMovement {
  id: string;
  transactionId: string;
  amountCents: number;
  createdAt: Date;
  kind: CardHistoryRow['kind'];
  flag: SaleFlag | null;
}

const CARD_COLUMNS = `c.id, c.card_id AS "cardId", c.esp_id AS "espId", c.holder_first_name AS "firstName",
  c.holder_last_name AS "lastName", c.phone_number AS "phoneNumber", c.card_type AS "cardType",
  c.balance::text AS balance, c.date_registered AS "dateRegistered", c.status,
  c.daily_limit_litres::text AS "dailyLimitLitres", c.blocked_at AS "blockedAt", c.blocked_reason AS "blockedReason",
  c.replaced_by AS "replacedBy"`;

type CardRecord = Omit<StoredCard, 'balanceCents'> & { balance: string };
const toCard = ({ balance, ...r }: CardRecord): StoredCard => ({ ...r, balanceCents: toCents(balance) });

/**
 * The only place that builds queries on cards. Every read is scoped by the device the card was
 * registered at (scopeDevices): a manager sees their devices' cards, an attendant their device's.
 */
@Injectable()
export class CardRepository {
  constructor(private readonly dataSource: DataSource) {}

  private scoped(actor: Actor, m: EntityManager = this.dataSource.manager): SelectQueryBuilder<ObjectLiteral> {
    const qb = m.createQueryBuilder().from('cards', 'c').innerJoin('devices', 'd', 'd.esp_id = c.esp_id');
    return scopeDevices(qb, actor, 'd');
  }

  /** The device an attendant works at (their scope holds exactly one, or none once unassigned). */
  async attendantDevice(m: EntityManager, actor: Actor): Promise<string | null> {
    const qb = m.createQueryBuilder().select('d.esp_id', 'espId').from('devices', 'd');
    const row = await scopeDevices(qb, actor, 'd').getRawOne<{ espId: string }>();
    return row?.espId ?? null;
  }

  /** Uniqueness is system-wide (docs/rest-api.md, "Details"), so this check is deliberately not scoped. */
  async cardIdTaken(m: EntityManager, cardId: string): Promise<boolean> {
    const rows = await m.query(`SELECT 1 FROM cards WHERE card_id = $1`, [cardId]);
    return rows.length > 0;
  }

  /** Null when a concurrent registration won the card id (the unique index decides). */
  async insert(m: EntityManager, card: NewCard): Promise<StoredCard | null> {
    const rows: CardRecord[] = await m.query(
      `WITH c AS (
         INSERT INTO cards (card_id, esp_id, holder_first_name, holder_last_name, phone_number, card_type, balance, registered_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7::numeric, $8)
         ON CONFLICT (card_id) DO NOTHING RETURNING *)
       SELECT ${CARD_COLUMNS} FROM c`,
      [
        card.cardId,
        card.espId,
        card.firstName,
        card.lastName,
        card.phoneNumber,
        card.cardType,
        centsToDecimal(card.balanceCents),
        card.registeredBy,
      ],
    );
    return rows.length ? toCard(rows[0]!) : null;
  }

  async findVisible(actor: Actor, cardId: string, m?: EntityManager): Promise<StoredCard | null> {
    const row = await this.scoped(actor, m)
      .select(CARD_COLUMNS)
      .andWhere('c.card_id = :cardId', { cardId })
      .getRawOne<CardRecord>();
    return row ? toCard(row) : null;
  }

  /**
   * The card's row id when the caller may block, unblock or replace it (docs/rest-api.md, "Selling
   * offline"): an admin any card; a manager the cards registered at their machines; an attendant the
   * cards that work at their machine (registered there, or at another machine of its owner).
   */
  async findControllable(m: EntityManager, actor: Actor, cardId: string): Promise<string | null> {
    const qb = m
      .createQueryBuilder()
      .select('c.id', 'id')
      .from('cards', 'c')
      .innerJoin('devices', 'd', 'd.esp_id = c.esp_id')
      .where('c.card_id = :cardId', { cardId });
    if (actor.role !== 'attendant') return (await scopeDevices(qb, actor, 'd').getRawOne<{ id: string }>())?.id ?? null;
    qb.innerJoin('devices', 'a', 'a.esp_id = d.esp_id OR (d.owner_id IS NOT NULL AND a.owner_id = d.owner_id)');
    return (await scopeDevices(qb, actor, 'a').limit(1).getRawOne<{ id: string }>())?.id ?? null;
  }

  /** The card row, locked until the end of the caller's transaction. */
  async lock(m: EntityManager, id: string): Promise<StoredCard> {
    const rows: CardRecord[] = await m.query(`SELECT ${CARD_COLUMNS} FROM cards c WHERE c.id = $1 FOR UPDATE`, [id]);
    return toCard(rows[0]!);
  }

  async setBlocked(
    m: EntityManager,
    id: string,
    reason: string,
    replacedBy: string | null = null,
  ): Promise<StoredCard> {
    const rows: CardRecord[] = await m.query(
      `WITH c AS (
         UPDATE cards SET status = 'blocked', blocked_at = coalesce(blocked_at, clock_timestamp()),
                blocked_reason = coalesce(blocked_reason, $2), replaced_by = coalesce($3, replaced_by)
         WHERE id = $1 RETURNING *)
       SELECT ${CARD_COLUMNS} FROM c`,
      [id, reason, replacedBy],
    );
    return toCard(rows[0]!);
  }

  async setActive(m: EntityManager, id: string): Promise<StoredCard> {
    const rows: CardRecord[] = await m.query(
      `WITH c AS (
         UPDATE cards SET status = 'active', blocked_at = NULL, blocked_reason = NULL WHERE id = $1 RETURNING *)
       SELECT ${CARD_COLUMNS} FROM c`,
      [id],
    );
    return toCard(rows[0]!);
  }

  async setDailyLimit(m: EntityManager, id: string, litres: number | null): Promise<StoredCard> {
    const rows: CardRecord[] = await m.query(
      `WITH c AS (UPDATE cards SET daily_limit_litres = $2::numeric WHERE id = $1 RETURNING *)
       SELECT ${CARD_COLUMNS} FROM c`,
      [id, litres === null ? null : litres.toFixed(3)],
    );
    return toCard(rows[0]!);
  }

  async listAtDevice(actor: Actor, espId: string): Promise<StoredCard[]> {
    const rows = await this.scoped(actor)
      .select(CARD_COLUMNS)
      .andWhere('c.esp_id = :espId', { espId })
      .orderBy('c.date_registered', 'ASC')
      .addOrderBy('c.id', 'ASC')
      .getRawMany<CardRecord>();
    return rows.map(toCard);
  }

  /** Registered cards per device in scope, devices without cards included. */
  async countPerDevice(actor: Actor): Promise<{ espId: string; count: number }[]> {
    const qb = this.dataSource
      .createQueryBuilder()
      .select('d.esp_id', 'espId')
      .addSelect('count(c.id)::int', 'count')
      .from('devices', 'd')
      .leftJoin('cards', 'c', 'c.esp_id = d.esp_id')
      .groupBy('d.esp_id')
      .orderBy('d.esp_id', 'ASC');
    return scopeDevices(qb, actor, 'd').getRawMany();
  }

  /**
   * A card's history, newest first: its loads and top-ups from the ledger, and every sale on its
   * card id from the sales table (flagged ones included: an unknown-card or foreign-card sale debited
   * nothing; the owner still sees that the card was presented elsewhere).
   */
  async history(card: StoredCard): Promise<CardMovement[]> {
    const rows: (Omit<CardMovement, 'amountCents'> & { amount: string })[] = await this.dataSource.query(
      `SELECT 'ledger-' || e.id AS id, coalesce(e.reference, e.id::text) AS "transactionId", e.amount::text AS amount,
              e.created_at AS "createdAt", e.kind, NULL AS flag, e.id AS seq
       FROM ledger_entries e
       WHERE e.account_type = 'card' AND e.account_id = $1 AND e.kind IN ('load', 'top-up', 'transfer-out', 'transfer-in', 'mobile-top-up')
       UNION ALL
       -- A refund names the sale it gives back part of, as that sale's row does.
       SELECT 'ledger-' || e.id, rs.event_id, e.amount::text, e.created_at, e.kind, NULL, e.id
       FROM ledger_entries e JOIN sales rs ON rs.id = (CASE WHEN e.kind = 'refund' THEN e.reference::bigint END)
       WHERE e.account_type = 'card' AND e.account_id = $1 AND e.kind = 'refund'
       UNION ALL
       SELECT 'sale-' || s.id, s.event_id, (-s.price)::text, s.sold_at, 'sale', s.flag, s.id
       FROM sales s WHERE s.card_id = $2 AND s.kind = 'card'
       ORDER BY "createdAt" DESC, seq DESC`,
      [card.id, card.cardId],
    );
    return rows.map(({ amount, ...r }) => ({
      id: r.id,
      transactionId: r.transactionId,
      amountCents: toCents(amount),
      createdAt: r.createdAt,
      kind: r.kind,
      flag: r.flag,
    }));
  }
}
