import type { Sale } from '@wv/contracts';
import type pg from 'pg';
import { rollupMismatches } from '../support/sales-invariants.js';
import type { AttendantBook } from './money-workload.js';

export interface SalesVerdict {
  stored: number;
  /** PUBACKed and not stored. */
  lost: string[];
  /** Stored more than once. */
  duplicated: string[];
  /** Stored but never sold by the fleet or the probe. */
  phantom: string[];
  /** Stored with another price, volume, kind or card than sold. */
  altered: string[];
  /** Sales whose daily or monthly rollup differs from the rows. */
  rollups: unknown[];
  deadLetters: number;
}

/** Every PUBACKed sale stored exactly once, as it was sold; rollups equal the rows. */
export async function checkSales(
  db: pg.Pool,
  pubacked: ReadonlySet<string>,
  sold: ReadonlyMap<string, Sale>,
): Promise<SalesVerdict> {
  const { rows } = await db.query<{
    key: string;
    n: number;
    kind: string;
    price: string;
    volume: string;
    card: string;
  }>(
    `SELECT esp_id || '/' || event_id AS key, count(*)::int AS n, min(kind) AS kind, min(price)::text AS price,
            min(volume)::text AS volume, min(card_id) AS card
     FROM sales GROUP BY 1`,
  );
  const stored = new Map(rows.map((r) => [r.key, r]));
  const altered: string[] = [];
  const phantom: string[] = [];
  for (const row of rows) {
    const sale = sold.get(row.key);
    if (!sale) {
      phantom.push(row.key);
      continue;
    }
    const same =
      sale.kind === row.kind &&
      Number(row.price) === Number(sale.price.toFixed(2)) &&
      Number(row.volume) === Number(sale.volume.toFixed(3)) &&
      (sale.kind === 'card' ? sale.cardId : null) === row.card;
    if (!same) altered.push(`${row.key}: stored ${row.kind} ${row.price} ${row.volume} ${row.card}`);
  }
  const [{ n: deadLetters }] = (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM dead_letters')).rows;
  return {
    stored: rows.length,
    lost: [...pubacked].filter((k) => !stored.has(k)),
    duplicated: rows.filter((r) => r.n !== 1).map((r) => `${r.key} ×${r.n}`),
    phantom,
    altered,
    rollups: await rollupMismatches(db),
    deadLetters: deadLetters!,
  };
}

/** Integer cents of a numeric(14,2) text. */
const cents = (v: string | null) => Math.round(Number(v ?? 0) * 100);

/**
 * The ledger's invariants over the whole database, and the clients' books against it. Returns one
 * sentence per violation (empty when everything holds).
 */
export async function checkMoney(db: pg.Pool, books: AttendantBook[]): Promise<string[]> {
  const violations: string[] = [];
  const q = async <T extends pg.QueryResultRow>(sql: string, params: unknown[] = []) =>
    (await db.query<T>(sql, params)).rows;

  // Every balance equals the sum of its entries and its latest entry's balance_after.
  for (const r of await q(`
    WITH sums AS (
      SELECT account_type, account_id, sum(amount) AS total, (array_agg(balance_after ORDER BY id DESC))[1] AS last_after
      FROM ledger_entries GROUP BY 1, 2),
    balances AS (
      SELECT 'card' AS account_type, id AS account_id, balance FROM cards
      UNION ALL SELECT 'float', attendant_id, balance FROM float_accounts)
    SELECT coalesce(b.account_type, s.account_type) AS type, coalesce(b.account_id, s.account_id)::text AS id,
           b.balance::text AS balance, s.total::text AS total, s.last_after::text AS last_after
    FROM balances b FULL JOIN sums s USING (account_type, account_id)
    WHERE b.account_id IS NULL OR b.balance <> coalesce(s.total, 0) OR s.last_after <> b.balance`)) {
    violations.push(`${r.type} ${r.id}: balance ${r.balance} but entries sum to ${r.total} (last ${r.last_after})`);
  }
  for (const r of await q(`SELECT attendant_id::text AS id, balance::text FROM float_accounts WHERE balance < 0`)) {
    violations.push(`float ${r.id} is negative: ${r.balance}`);
  }
  for (const r of await q(`
    SELECT reference, count(*)::int AS n FROM ledger_entries WHERE kind = 'float_approval' GROUP BY 1 HAVING count(*) > 1
    UNION ALL
    SELECT r.id::text, 0 FROM float_requests r
      LEFT JOIN ledger_entries e ON e.kind = 'float_approval' AND e.reference = r.id::text
      WHERE r.status = 'approved' AND (e.id IS NULL OR e.amount <> r.approved_amount)`)) {
    violations.push(`float request ${r.reference} credited ${r.n} times`);
  }

  // Money that entered (approved float, M-Pesa top-ups) = float left + card balances + card sales.
  const [t] = await q<{ entered: string; float: string; cards: string; sales: string }>(`
    SELECT (SELECT coalesce(sum(amount), 0) FROM ledger_entries WHERE kind IN ('float_approval', 'mobile-top-up'))::text AS entered,
           (SELECT coalesce(sum(balance), 0) FROM float_accounts)::text AS float,
           (SELECT coalesce(sum(balance), 0) FROM cards)::text AS cards,
           (SELECT coalesce(-sum(amount), 0) FROM ledger_entries WHERE kind = 'sale')::text AS sales`);
  if (cents(t!.entered) !== cents(t!.float) + cents(t!.cards) + cents(t!.sales)) {
    violations.push(
      `money not conserved: entered ${t!.entered} ≠ float ${t!.float} + cards ${t!.cards} + card sales ${t!.sales}`,
    );
  }

  // A card sale on a registered card is debited exactly once, by its price; no other sale is.
  for (const r of await q(`
    SELECT s.esp_id || '/' || s.event_id AS key, count(e.id)::int AS n
    FROM sales s LEFT JOIN ledger_entries e ON e.kind = 'sale' AND e.reference = s.id::text AND e.amount = -s.price
    WHERE s.kind = 'card' AND s.flag IS DISTINCT FROM 'unknown_card'
    GROUP BY s.id, s.esp_id, s.event_id HAVING count(e.id) <> 1
    UNION ALL
    SELECT coalesce(s.esp_id || '/' || s.event_id, 'entry ' || e.id), count(*)::int
    FROM ledger_entries e LEFT JOIN sales s ON s.id::text = e.reference
    WHERE e.kind = 'sale' AND (s.id IS NULL OR s.kind <> 'card' OR s.flag = 'unknown_card')
    GROUP BY 1`)) {
    violations.push(`card sale ${r.key} debited ${r.n} times`);
  }

  // The clients' books: what each attendant was told is what the server holds.
  const floats = new Map(
    (
      await q<{ id: string; balance: string; approved: string }>(`
        SELECT f.attendant_id::text AS id, f.balance::text,
               (SELECT coalesce(sum(amount), 0) FROM ledger_entries e
                WHERE e.kind = 'float_approval' AND e.account_id = f.attendant_id)::text AS approved
        FROM float_accounts f`)
    ).map((r) => [r.id, r]),
  );
  const cardRows = new Map(
    (
      await q<{ card: string; balance: string; loaded: string; mobile: string; sales: string }>(`
        SELECT c.card_id AS card, c.balance::text,
               coalesce(sum(e.amount) FILTER (WHERE e.kind IN ('load', 'top-up')), 0)::text AS loaded,
               coalesce(sum(e.amount) FILTER (WHERE e.kind = 'mobile-top-up'), 0)::text AS mobile,
               coalesce(sum(e.amount) FILTER (WHERE e.kind = 'sale'), 0)::text AS sales
        FROM cards c LEFT JOIN ledger_entries e ON e.account_type = 'card' AND e.account_id = c.id
        GROUP BY c.id`)
    ).map((r) => [r.card, r]),
  );
  for (const book of books) {
    const row = floats.get(book.userId);
    if (cents(row?.balance ?? '0') !== book.float * 100 || cents(row?.approved ?? '0') !== book.approved * 100) {
      violations.push(
        `attendant ${book.userId}: server float ${row?.balance ?? 0} approved ${row?.approved ?? 0}, client float ${book.float} approved ${book.approved}`,
      );
    }
    for (const [card, loaded] of book.loaded) {
      const c = cardRows.get(card);
      if (!c) violations.push(`card ${card}: registered (201) but not stored`);
      else if (
        cents(c.loaded) !== loaded * 100 ||
        cents(c.balance) !== cents(c.loaded) + cents(c.mobile) + cents(c.sales)
      ) {
        violations.push(
          `card ${card}: balance ${c.balance}, loads ${c.loaded}, M-Pesa ${c.mobile}, sales ${c.sales}; client loaded ${loaded}`,
        );
      }
    }
  }
  const known = new Set(books.flatMap((b) => [...b.loaded.keys()]));
  for (const card of cardRows.keys())
    if (!known.has(card)) violations.push(`card ${card}: stored but never registered`);
  return violations;
}
