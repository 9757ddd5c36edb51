import { Injectable } from '@nestjs/common';
import { MONEY_MAX } from '@wv/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { centsToDecimal, toCents } from '../money/money.js';

export interface LockedCard {
  id: string;
  cardId: string;
  balanceCents: number;
  /**
   * The machines, among those asked about, where this card may be spent: the machine it was
   * registered at and every other machine of that machine's owner.
   */
  worksAt: Set<string>;
  status: 'active' | 'blocked';
  blockedAt: Date | null;
  /** Litres per local day in thousandths (millilitres), or null for no limit. */
  dailyLimitMl: number | null;
}

export type LedgerKind =
  'float_approval' | 'load' | 'top-up' | 'sale' | 'refund' | 'transfer-out' | 'transfer-in' | 'mobile-top-up';

export interface LedgerInput {
  accountType: 'float' | 'card';
  /** A float account's id is its attendant's user id; a card account's id is the card row's id. */
  accountId: string;
  kind: LedgerKind;
  amountCents: number;
  balanceAfterCents: number;
  reference: string | null;
  actorId: string | null;
}

const cents = (n: number) => centsToDecimal(n);

/** The largest value a numeric(14,2) balance holds, as SQL text ('999999999999.99'). */
const BALANCE_MAX = MONEY_MAX.toFixed(2);

/**
 * Float and card balances and the ledger: every balance change is written with its entry, in one
 * transaction. Balances move only through conditional updates or row locks, so concurrent
 * movements on one account serialise in PostgreSQL, whichever process runs them.
 */
@Injectable()
export class LedgerRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Adds approved float; creates the attendant's account on first approval. Returns the new balance,
   * or null when it would not fit the balance column (the caller refuses; nothing was written).
   */
  async creditFloat(m: EntityManager, attendantId: string, amountCents: number): Promise<number | null> {
    const rows: { balance: string }[] = await m.query(
      `INSERT INTO float_accounts AS f (attendant_id, balance) VALUES ($1, $2::numeric)
       ON CONFLICT (attendant_id) DO UPDATE SET balance = f.balance + excluded.balance, updated_at = now()
         WHERE f.balance + excluded.balance <= $3::numeric
       RETURNING balance::text`,
      [attendantId, cents(amountCents), BALANCE_MAX],
    );
    return rows.length ? toCents(rows[0]!.balance) : null;
  }

  /**
   * Spends float only when there is enough: one conditional UPDATE, so two concurrent loads can never
   * both pass a check that only one of them fits. Returns the new balance, or null when refused.
   */
  async debitFloat(m: EntityManager, attendantId: string, amountCents: number): Promise<number | null> {
    const rows: { balance: string }[] = await m.query(
      `WITH spent AS (
         UPDATE float_accounts SET balance = balance - $2::numeric, updated_at = now()
         WHERE attendant_id = $1 AND balance >= $2::numeric RETURNING balance)
       SELECT balance::text FROM spent`,
      [attendantId, cents(amountCents)],
    );
    return rows.length ? toCents(rows[0]!.balance) : null;
  }

  async floatBalance(attendantId: string): Promise<number> {
    const rows: { balance: string }[] = await this.dataSource.query(
      `SELECT balance::text FROM float_accounts WHERE attendant_id = $1`,
      [attendantId],
    );
    return rows.length ? toCents(rows[0]!.balance) : 0;
  }

  /**
   * Adds to a card's balance (a top-up); the UPDATE takes the card's row lock. Returns the new balance,
   * or null when it would not fit the balance column (the caller refuses; nothing was written).
   */
  async creditCard(m: EntityManager, cardRowId: string, amountCents: number): Promise<number | null> {
    const rows: { balance: string }[] = await m.query(
      `WITH loaded AS (
         UPDATE cards SET balance = balance + $2::numeric WHERE id = $1 AND balance + $2::numeric <= $3::numeric
         RETURNING balance)
       SELECT balance::text FROM loaded`,
      [cardRowId, cents(amountCents), BALANCE_MAX],
    );
    return rows.length ? toCents(rows[0]!.balance) : null;
  }

  /**
   * Locks the cards in card_id order, so that concurrent batches never deadlock, and says for each
   * at which of `sellingEspIds` it may be spent: the machine it was registered at, and every machine
   * of that machine's owner (a card registered at a machine without an owner works only there).
   * Ownership is read in the statement that takes the card locks, so a batch decides on one snapshot;
   * an ownership change committed meanwhile applies from the next batch on.
   */
  async lockCards(m: EntityManager, cardIds: string[], sellingEspIds: string[]): Promise<LockedCard[]> {
    if (cardIds.length === 0) return [];
    const cards: {
      id: string;
      cardId: string;
      balance: string;
      homeEspId: string;
      homeOwnerId: string | null;
      status: 'active' | 'blocked';
      blockedAt: Date | null;
      dailyLimit: string | null;
    }[] = await m.query(
      `SELECT c.id, c.card_id AS "cardId", c.balance::text, c.esp_id AS "homeEspId", home.owner_id AS "homeOwnerId",
              c.status, c.blocked_at AS "blockedAt", c.daily_limit_litres::text AS "dailyLimit"
         FROM cards c JOIN devices home ON home.esp_id = c.esp_id
         WHERE c.card_id = ANY($1) ORDER BY c.card_id FOR UPDATE OF c`,
      [cardIds],
    );
    // The owners of the batch's selling machines, read once: a card works at its own machine and at
    // every machine of that machine's owner (an unowned machine: only there).
    const selling: { espId: string; ownerId: string | null }[] = await m.query(
      `SELECT esp_id AS "espId", owner_id AS "ownerId" FROM devices WHERE esp_id = ANY($1)`,
      [sellingEspIds],
    );
    return cards.map((c) => ({
      id: c.id,
      cardId: c.cardId,
      balanceCents: toCents(c.balance),
      status: c.status,
      blockedAt: c.blockedAt,
      dailyLimitMl: c.dailyLimit === null ? null : Math.round(Number(c.dailyLimit) * 1000),
      worksAt: new Set(
        selling
          .filter((s) => s.espId === c.homeEspId || (c.homeOwnerId !== null && s.ownerId === c.homeOwnerId))
          .map((s) => s.espId),
      ),
    }));
  }

  async setCardBalances(m: EntityManager, cards: { id: string; balanceCents: number }[]): Promise<void> {
    if (cards.length === 0) return;
    await m.query(
      `UPDATE cards c SET balance = b.balance FROM unnest($1::uuid[], $2::numeric[]) AS b(id, balance) WHERE c.id = b.id`,
      [cards.map((c) => c.id), cards.map((c) => cents(c.balanceCents))],
    );
  }

  async insertEntries(m: EntityManager, entries: LedgerInput[]): Promise<void> {
    if (entries.length === 0) return;
    await m.query(
      `INSERT INTO ledger_entries (account_type, account_id, kind, amount, balance_after, reference, actor_id)
       SELECT * FROM unnest($1::text[], $2::uuid[], $3::text[], $4::numeric[], $5::numeric[], $6::text[], $7::uuid[])`,
      [
        entries.map((e) => e.accountType),
        entries.map((e) => e.accountId),
        entries.map((e) => e.kind),
        entries.map((e) => cents(e.amountCents)),
        entries.map((e) => cents(e.balanceAfterCents)),
        entries.map((e) => e.reference),
        entries.map((e) => e.actorId),
      ],
    );
  }
}
