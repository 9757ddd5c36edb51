import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { returningRows } from '../common/returning-rows.js';

/** A card as the lists carry it, numeric columns as PostgreSQL writes them. */
export interface ListedCard {
  cardId: string;
  status: 'active' | 'blocked';
  balance: string;
  dailyLimitLitres: string | null;
  /** The machines whose lists hold the card: `o:<owner id>` (an owner's machines) or `m:<espId>` (one unowned machine). */
  groupKey: string;
}

export interface MachineListState {
  espId: string;
  groupKey: string;
  version: number;
  ackedVersion: number;
  fullVersion: number;
  stale: boolean;
}

export interface OutOfStepMachine {
  espId: string;
  hasState: boolean;
}

/** The group of machines a card registered at `c` works at (docs/device-protocol.md, "Card lists"). */
const CARD_GROUP = `CASE WHEN d.owner_id IS NULL THEN 'm:' || d.esp_id ELSE 'o:' || d.owner_id::text END`;

const LISTED_COLUMNS = `c.card_id AS "cardId", c.status, c.balance::text AS balance,
  c.daily_limit_litres::text AS "dailyLimitLitres", ${CARD_GROUP} AS "groupKey"`;

const STATE_COLUMNS = `s.esp_id AS "espId", ${CARD_GROUP} AS "groupKey", s.version, s.acked_version AS "ackedVersion",
  s.full_version AS "fullVersion", s.stale`;

/** Card ids shaped like a card row's uuid may name the row instead of the card (both are accepted). */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The only place that builds queries on card lists. */
@Injectable()
export class CardListRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Machines without a list yet, or whose owner changed since their list was built. */
  async outOfStep(m: EntityManager, limit: number): Promise<OutOfStepMachine[]> {
    return m.query(
      `SELECT d.esp_id AS "espId", s.esp_id IS NOT NULL AS "hasState"
       FROM devices d LEFT JOIN card_list_state s ON s.esp_id = d.esp_id
       WHERE s.esp_id IS NULL OR s.owner_id IS DISTINCT FROM d.owner_id
       ORDER BY d.esp_id LIMIT $1`,
      [limit],
    );
  }

  /**
   * Machines whose last message was a delta they have not acknowledged for `seconds` (lost in a crash
   * between commit and publish, or dropped by the machine): they are owed the full list.
   */
  async unacknowledgedDeltas(m: EntityManager, seconds: number, limit: number): Promise<string[]> {
    const rows: { espId: string }[] = await m.query(
      `SELECT esp_id AS "espId" FROM card_list_state
       WHERE acked_version <> version AND full_version <> version AND NOT stale
         AND sent_at < now() - make_interval(secs => $1)
       ORDER BY esp_id LIMIT $2`,
      [seconds, limit],
    );
    return rows.map((r) => r.espId);
  }

  /** Creates missing states and records the owner each list is now built for. */
  async adoptOwners(m: EntityManager, espIds: string[]): Promise<void> {
    if (espIds.length === 0) return;
    await m.query(
      `INSERT INTO card_list_state (esp_id, owner_id)
       SELECT d.esp_id, d.owner_id FROM devices d WHERE d.esp_id = ANY($1)
       ON CONFLICT (esp_id) DO UPDATE SET owner_id = excluded.owner_id`,
      [espIds],
    );
  }

  async cardIdsAt(m: EntityManager, espIds: string[]): Promise<string[]> {
    if (espIds.length === 0) return [];
    const rows: { cardId: string }[] = await m.query(`SELECT card_id AS "cardId" FROM cards WHERE esp_id = ANY($1)`, [
      espIds,
    ]);
    return rows.map((r) => r.cardId);
  }

  /** At most `limit` cards whose lists carry other values than the card has now, or that no list carries yet. */
  async cardsOutOfStep(m: EntityManager, limit: number): Promise<string[]> {
    const rows: { cardId: string }[] = await m.query(
      `SELECT "cardId" FROM (
         SELECT c.card_id AS "cardId"
         FROM cards c JOIN devices d ON d.esp_id = c.esp_id
         LEFT JOIN card_list_cards p ON p.card_id = c.card_id
         WHERE p.card_id IS NULL OR p.group_key <> ${CARD_GROUP} OR p.status <> c.status OR p.balance <> c.balance
            OR p.daily_limit_litres IS DISTINCT FROM c.daily_limit_litres
         UNION ALL
         SELECT p.card_id FROM card_list_cards p WHERE NOT EXISTS (SELECT 1 FROM cards c WHERE c.card_id = p.card_id)
       ) out_of_step LIMIT $1`,
      [limit],
    );
    return rows.map((r) => r.cardId);
  }

  /** The cards named (by card id, or by row id), as they are now. */
  async currentCards(m: EntityManager, ids: string[]): Promise<ListedCard[]> {
    if (ids.length === 0) return [];
    return m.query(
      `SELECT ${LISTED_COLUMNS} FROM cards c JOIN devices d ON d.esp_id = c.esp_id
       WHERE c.card_id = ANY($1) OR c.id = ANY($2::uuid[])`,
      [ids, ids.filter((id) => UUID.test(id))],
    );
  }

  /** What the lists carry of these cards, locked until the new values are recorded. */
  async publishedCards(m: EntityManager, cardIds: string[]): Promise<ListedCard[]> {
    if (cardIds.length === 0) return [];
    return m.query(
      `SELECT card_id AS "cardId", status, balance::text AS balance, daily_limit_litres::text AS "dailyLimitLitres",
              group_key AS "groupKey"
       FROM card_list_cards WHERE card_id = ANY($1) ORDER BY card_id FOR UPDATE`,
      [cardIds],
    );
  }

  async recordPublished(m: EntityManager, cards: ListedCard[], removed: string[]): Promise<void> {
    if (cards.length > 0) {
      await m.query(
        `INSERT INTO card_list_cards (card_id, group_key, status, balance, daily_limit_litres)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::numeric[], $5::numeric[])
         ON CONFLICT (card_id) DO UPDATE SET group_key = excluded.group_key, status = excluded.status,
           balance = excluded.balance, daily_limit_litres = excluded.daily_limit_litres, updated_at = now()`,
        [
          cards.map((c) => c.cardId),
          cards.map((c) => c.groupKey),
          cards.map((c) => c.status),
          cards.map((c) => c.balance),
          cards.map((c) => c.dailyLimitLitres),
        ],
      );
    }
    if (removed.length > 0) await m.query(`DELETE FROM card_list_cards WHERE card_id = ANY($1)`, [removed]);
  }

  /**
   * The list states of the machines of `groupKeys` and of `espIds`, locked in one order (acknowledgements
   * wait for the new versions).
   */
  async lockMachines(m: EntityManager, groupKeys: string[], espIds: string[]): Promise<MachineListState[]> {
    if (groupKeys.length === 0 && espIds.length === 0) return [];
    const owners = groupKeys.filter((g) => g.startsWith('o:')).map((g) => g.slice(2));
    const lone = groupKeys.filter((g) => g.startsWith('m:')).map((g) => g.slice(2));
    return m.query(
      `SELECT ${STATE_COLUMNS}
       FROM card_list_state s JOIN devices d ON d.esp_id = s.esp_id
       WHERE d.owner_id = ANY($1::uuid[]) OR (d.owner_id IS NULL AND d.esp_id = ANY($2)) OR s.esp_id = ANY($3)
       ORDER BY s.esp_id FOR UPDATE OF s`,
      [owners, lone, espIds],
    );
  }

  /** Every card of a group of machines, in card id order. */
  async groupCards(m: EntityManager, groupKey: string): Promise<ListedCard[]> {
    const owned = groupKey.startsWith('o:');
    return m.query(
      `SELECT ${LISTED_COLUMNS} FROM cards c JOIN devices d ON d.esp_id = c.esp_id
       WHERE ${owned ? 'd.owner_id = $1::uuid' : 'd.owner_id IS NULL AND d.esp_id = $1'}
       ORDER BY c.card_id`,
      [groupKey.slice(2)],
    );
  }

  /**
   * A new version for each machine: `full` ones get a whole list (their changes no longer wait), the
   * others a delta, and `stale` ones nothing yet. Returns the new version of each machine sent to.
   */
  async advance(
    m: EntityManager,
    sent: { espId: string; full: boolean }[],
    stale: string[],
  ): Promise<Map<string, number>> {
    if (stale.length > 0) await m.query(`UPDATE card_list_state SET stale = true WHERE esp_id = ANY($1)`, [stale]);
    if (sent.length === 0) return new Map();
    const rows = returningRows<{ espId: string; version: number }>(
      await m.query(
        `UPDATE card_list_state s SET version = s.version + 1,
           full_version = CASE WHEN u.is_full THEN s.version + 1 ELSE s.full_version END,
           stale = CASE WHEN u.is_full THEN false ELSE s.stale END, sent_at = now(), updated_at = now()
         FROM unnest($1::text[], $2::bool[]) AS u(esp_id, is_full)
         WHERE s.esp_id = u.esp_id RETURNING s.esp_id AS "espId", s.version`,
        [sent.map((s) => s.espId), sent.map((s) => s.full)],
      ),
    );
    return new Map(rows.map((r) => [r.espId, r.version]));
  }

  /**
   * Records the version each machine says it holds (one per machine), in one statement. A version beyond the newest
   * (a database restored from an older backup) lifts the newest to it, so that the next list outnumbers what the
   * machine holds. Rows are locked in esp_id order, as the planner locks them, so that the two never wait on each
   * other in a circle. Returns, per machine that has a list state, its newest version before this acknowledgement and
   * the version it had acknowledged before; a machine without one is left out.
   */
  async acknowledgeMany(
    acks: { espId: string; version: number }[],
  ): Promise<Map<string, { version: number; ackedBefore: number; stale: boolean }>> {
    if (acks.length === 0) return new Map();
    const rows = returningRows<{ espId: string; version: number; ackedBefore: number; stale: boolean }>(
      await this.dataSource.query(
        `WITH input AS (SELECT * FROM unnest($1::text[], $2::int[]) AS u(esp_id, version)),
         prev AS (
           SELECT s.esp_id, s.version, s.acked_version FROM card_list_state s
           WHERE s.esp_id IN (SELECT esp_id FROM input) ORDER BY s.esp_id FOR UPDATE
         )
         UPDATE card_list_state s
         SET version = greatest(prev.version, input.version),
             acked_version = CASE WHEN input.version > prev.version THEN prev.acked_version ELSE input.version END,
             acked_at = now()
         FROM prev JOIN input USING (esp_id) WHERE s.esp_id = prev.esp_id
         RETURNING s.esp_id AS "espId", prev.version, prev.acked_version AS "ackedBefore", s.stale`,
        [acks.map((a) => a.espId), acks.map((a) => a.version)],
      ),
    );
    return new Map(rows.map(({ espId, ...state }) => [espId, state]));
  }

  async state(espId: string): Promise<{ version: number; ackedVersion: number; stale: boolean } | null> {
    const rows = await this.dataSource.query(
      `SELECT version, acked_version AS "ackedVersion", stale FROM card_list_state WHERE esp_id = $1`,
      [espId],
    );
    return rows[0] ?? null;
  }

  /** The machines among `espIds` whose list is not acknowledged at its newest version, or is stale. */
  async behind(espIds: string[]): Promise<string[]> {
    const rows: { espId: string }[] = await this.dataSource.query(
      `SELECT esp_id AS "espId" FROM card_list_state
       WHERE esp_id = ANY($1::text[]) AND (acked_version IS DISTINCT FROM version OR stale)`,
      [espIds],
    );
    return rows.map((row) => row.espId);
  }
}
