import { Injectable } from '@nestjs/common';
import type { SaleFlag } from '@wv/contracts';
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
}

export interface CardMovement {
  id: string;
  transactionId: string;
  amountCents: number;
  createdAt: Date;
  kind: 'load' | 'top-up' | 'sale';
  flag: SaleFlag | null;
}

const CARD_COLUMNS = `c.id, c.card_id AS "cardId", c.esp_id AS "espId", c.holder_first_name AS "firstName",
  c.holder_last_name AS "lastName", c.phone_number AS "phoneNumber", c.card_type AS "cardType",
  c.balance::text AS balance, c.date_registered AS "dateRegistered"`;

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
       WHERE e.account_type = 'card' AND e.account_id = $1 AND e.kind IN ('load', 'top-up')
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
