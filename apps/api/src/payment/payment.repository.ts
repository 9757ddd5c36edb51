import { Injectable } from '@nestjs/common';
import type { PaymentListQuery, PaymentStatus, PaymentUpdatedEvent } from '@wv/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import type { Actor } from '../common/actor.js';
import { returningRows } from '../common/returning-rows.js';
import { centsToAmount, centsToDecimal, toCents } from '../money/money.js';

export type SettledBy = 'callback' | 'query' | 'confirmation' | 'statement' | 'match' | 'push';
export type EventSource = 'stk-callback' | 'stk-query' | 'c2b-validation' | 'c2b-confirmation' | 'statement';

export interface StoredPayment {
  id: string;
  method: 'stk' | 'paybill';
  status: PaymentStatus;
  cardRowId: string | null;
  cardId: string | null;
  amountCents: number;
  phoneNumber: string | null;
  receipt: string | null;
  accountReference: string | null;
  checkoutRequestId: string | null;
  pushState: 'none' | 'queued' | 'sending' | 'sent' | 'failed' | 'unknown';
  createdAt: Date;
  completedAt: Date | null;
}

export interface PaymentCard {
  id: string;
  cardId: string;
  status: 'active' | 'blocked';
}

const COLUMNS = `p.id, p.method, p.status, p.card_row_id AS "cardRowId", p.card_id AS "cardId", p.amount::text AS amount,
  p.phone_number AS "phoneNumber", p.receipt, p.account_reference AS "accountReference",
  p.checkout_request_id AS "checkoutRequestId", p.push_state AS "pushState", p.created_at AS "createdAt",
  p.completed_at AS "completedAt"`;

type Row = Omit<StoredPayment, 'amountCents'> & { amount: string };
const toPayment = ({ amount, ...r }: Row): StoredPayment => ({ ...r, amountCents: toCents(amount) });

/**
 * Who may see a payment and start one on a card (docs/mobile-money.md, "Who may"): an admin every
 * payment; a manager those of cards registered at their machines; an attendant those of cards that
 * work at their machine. Payments without a card (unmatched) are the admin's alone. `$1` is the user.
 */
function scopeSql(actor: Actor, card: string): string {
  switch (actor.role) {
    case 'admin':
      // $1 is still named, so that PostgreSQL knows its type.
      return '$1::uuid IS NOT NULL';
    case 'manager':
      return `EXISTS (SELECT 1 FROM devices d WHERE d.esp_id = ${card}.esp_id AND d.owner_id = $1)`;
    case 'attendant':
      return `EXISTS (SELECT 1 FROM devices d JOIN devices a
                        ON a.esp_id = d.esp_id OR (d.owner_id IS NOT NULL AND a.owner_id = d.owner_id)
                      WHERE d.esp_id = ${card}.esp_id AND a.attendant_id = $1)`;
  }
}

/** The only place that builds queries on payments and payment events. */
@Injectable()
export class PaymentRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** For single statements outside a transaction. */
  manager(): EntityManager {
    return this.dataSource.manager;
  }

  /** The card when the caller may top it up (404 otherwise: never saying whose it is). */
  async findCardInScope(m: EntityManager, actor: Actor, cardId: string): Promise<PaymentCard | null> {
    const rows: PaymentCard[] = await m.query(
      `SELECT c.id, c.card_id AS "cardId", c.status FROM cards c WHERE c.card_id = $2 AND ${scopeSql(actor, 'c')}`,
      [actor.userId, cardId],
    );
    return rows[0] ?? null;
  }

  /** Any card by its ID (an account number on a paybill payment or a statement, an admin's match). */
  async findCard(m: EntityManager, cardId: string): Promise<PaymentCard | null> {
    const rows: PaymentCard[] = await m.query(`SELECT id, card_id AS "cardId", status FROM cards WHERE card_id = $1`, [
      cardId,
    ]);
    return rows[0] ?? null;
  }

  async insertStk(
    m: EntityManager,
    p: { card: PaymentCard; amountCents: number; phoneNumber: string; requestedBy: string },
  ): Promise<StoredPayment> {
    const rows: Row[] = await m.query(
      `WITH p AS (
         INSERT INTO payments (provider, method, status, card_row_id, card_id, amount, phone_number, account_reference,
                               requested_by, push_state, next_attempt_at)
         VALUES ('mpesa', 'stk', 'pending', $1, $2, $3::numeric, $4, $5, $6, 'queued', clock_timestamp())
         RETURNING *)
       SELECT ${COLUMNS} FROM p`,
      [
        p.card.id,
        p.card.cardId,
        centsToDecimal(p.amountCents),
        p.phoneNumber,
        p.card.cardId.slice(0, 12),
        p.requestedBy,
      ],
    );
    return toPayment(rows[0]!);
  }

  /** A paybill payment, already settled: `completed` on a card or `unmatched`. Null when the receipt exists. */
  async insertPaybill(
    m: EntityManager,
    p: {
      status: 'completed' | 'unmatched';
      card: PaymentCard | null;
      accountReference: string;
      amountCents: number;
      phoneNumber: string | null;
      receipt: string;
      settledBy: SettledBy;
      completedAt: Date;
    },
  ): Promise<StoredPayment | null> {
    const rows: Row[] = await m.query(
      `WITH p AS (
         INSERT INTO payments (provider, method, status, card_row_id, card_id, amount, phone_number, receipt,
                               account_reference, settled_by, created_at, completed_at)
         VALUES ('mpesa', 'paybill', $1, $2, $3, $4::numeric, $5, $6, $7, $8, $9,
                 CASE WHEN $1 = 'completed' THEN clock_timestamp() END)
         ON CONFLICT (provider, receipt) WHERE receipt IS NOT NULL DO NOTHING
         RETURNING *)
       SELECT ${COLUMNS} FROM p`,
      [
        p.status,
        p.card?.id ?? null,
        p.card?.cardId ?? null,
        centsToDecimal(p.amountCents),
        p.phoneNumber,
        p.receipt,
        p.accountReference,
        p.settledBy,
        p.completedAt,
      ],
    );
    return rows[0] ? toPayment(rows[0]) : null;
  }

  async lock(m: EntityManager, id: string): Promise<StoredPayment | null> {
    const rows: Row[] = await m.query(`SELECT ${COLUMNS} FROM payments p WHERE p.id = $1 FOR UPDATE`, [id]);
    return rows[0] ? toPayment(rows[0]) : null;
  }

  async lockByCheckout(m: EntityManager, checkoutRequestId: string): Promise<StoredPayment | null> {
    const rows: Row[] = await m.query(
      `SELECT ${COLUMNS} FROM payments p WHERE p.provider = 'mpesa' AND p.checkout_request_id = $1 FOR UPDATE`,
      [checkoutRequestId],
    );
    return rows[0] ? toPayment(rows[0]) : null;
  }

  /**
   * The push of unknown outcome (its answer from Daraja was lost) that a paid callback of this phone number
   * and amount belongs to: it learns its CheckoutRequestID. So does a push still being sent: the callback
   * can come before Daraja's answer is recorded, and a push whose worker stopped mid-send stays `sending`
   * until its lease ends. The callback names no card, so only a push still waiting (pending) qualifies,
   * and only when it is the one such push: with two alike the money could go to the wrong card, and the
   * statement, which names the account, settles them instead.
   */
  async lockUnknownPush(
    m: EntityManager,
    q: { amountCents: number; msisdn: string; checkoutRequestId: string },
  ): Promise<StoredPayment | null> {
    const rows: Row[] = await m.query(
      `SELECT ${COLUMNS} FROM payments p
       WHERE p.provider = 'mpesa' AND p.method = 'stk' AND p.status = 'pending' AND p.push_state IN ('sending', 'unknown')
         AND p.checkout_request_id IS NULL AND p.amount = $1::numeric
         AND regexp_replace(p.phone_number, '\\D', '', 'g') = $2
       ORDER BY p.created_at LIMIT 2 FOR UPDATE`,
      [centsToDecimal(q.amountCents), q.msisdn],
    );
    if (rows.length !== 1) return null;
    await m.query(`UPDATE payments SET checkout_request_id = $2 WHERE id = $1`, [rows[0]!.id, q.checkoutRequestId]);
    return toPayment({ ...rows[0]!, checkoutRequestId: q.checkoutRequestId });
  }

  async lockByReceipt(m: EntityManager, receipt: string): Promise<StoredPayment | null> {
    const rows: Row[] = await m.query(
      `SELECT ${COLUMNS} FROM payments p WHERE p.provider = 'mpesa' AND p.receipt = $1 FOR UPDATE`,
      [receipt],
    );
    return rows[0] ? toPayment(rows[0]) : null;
  }

  /**
   * The push a statement line of an unknown receipt most likely is: one whose receipt this server has
   * not learnt (completed by the status query, whose answer carries none, or still pending because its
   * callback was lost) with the same amount, phone and account reference, requested at most a day before
   * the line's time. Completed ones first, then the oldest; locked (a concurrent callback settles first,
   * and then the receipt is found taken).
   */
  async lockReceiptless(
    m: EntityManager,
    line: { amountCents: number; msisdn: string | null; accountReference: string; completedAt: Date },
  ): Promise<StoredPayment | null> {
    const rows: Row[] = await m.query(
      `SELECT ${COLUMNS} FROM payments p
       WHERE p.provider = 'mpesa' AND p.method = 'stk' AND p.receipt IS NULL
         AND (p.status = 'completed' OR (p.status = 'pending' AND p.push_state IN ('sending', 'sent', 'unknown'))
              OR (p.status = 'failed' AND p.push_state = 'unknown'))
         AND p.amount = $1::numeric AND p.account_reference = $2
         AND ($3::text IS NULL OR regexp_replace(p.phone_number, '\\D', '', 'g') LIKE '%' || $3)
         AND p.created_at BETWEEN $4::timestamptz - interval '1 day' AND $4::timestamptz + interval '10 minutes'
       ORDER BY p.status = 'completed' DESC, p.created_at LIMIT 1 FOR UPDATE`,
      [centsToDecimal(line.amountCents), line.accountReference.slice(0, 12), line.msisdn, line.completedAt],
    );
    return rows[0] ? toPayment(rows[0]) : null;
  }

  /**
   * pending or unmatched → completed, with its receipt (when known) and card; also a push of unknown
   * outcome that failed for want of a callback, when its callback or a statement line shows it paid.
   */
  async complete(
    m: EntityManager,
    id: string,
    p: { receipt: string | null; card: PaymentCard; settledBy: SettledBy; resultCode: string; resultDesc: string },
  ): Promise<void> {
    await m.query(
      `UPDATE payments SET status = 'completed', receipt = coalesce($2, receipt), card_row_id = $3, card_id = $4,
              settled_by = $5, result_code = $6, result_desc = left($7, 500), completed_at = clock_timestamp(),
              next_attempt_at = NULL, lease_until = NULL
       WHERE id = $1 AND (status IN ('pending', 'unmatched') OR (status = 'failed' AND push_state = 'unknown'))`,
      [id, p.receipt, p.card.id, p.card.cardId, p.settledBy, p.resultCode, p.resultDesc],
    );
  }

  /** pending → failed, cancelled or unmatched (money received that no card can take). */
  async finish(
    m: EntityManager,
    id: string,
    p: {
      status: 'failed' | 'cancelled' | 'unmatched';
      receipt?: string | null;
      settledBy: SettledBy;
      resultCode: string;
      resultDesc: string;
    },
  ): Promise<void> {
    await m.query(
      `UPDATE payments SET status = $2, receipt = coalesce($3, receipt), settled_by = $4, result_code = $5,
              result_desc = left($6, 500), next_attempt_at = NULL, lease_until = NULL,
              push_state = CASE WHEN push_state IN ('queued', 'sending') THEN 'failed' ELSE push_state END
       WHERE id = $1 AND status = 'pending'`,
      [id, p.status, p.receipt ?? null, p.settledBy, p.resultCode, p.resultDesc],
    );
  }

  /** The receipt of a payment that was settled without one; false when the receipt is another payment's. */
  async attachReceipt(m: EntityManager, id: string, receipt: string): Promise<boolean> {
    const result: unknown = await m.query(
      `UPDATE payments SET receipt = $2 WHERE id = $1 AND receipt IS NULL
         AND NOT EXISTS (SELECT 1 FROM payments o WHERE o.provider = 'mpesa' AND o.receipt = $2)
       RETURNING id`,
      [id, receipt],
    );
    return returningRows(result).length > 0;
  }

  async recordEvent(
    m: EntityManager,
    e: { source: EventSource; outcome: string; paymentId: string | null; reference: string | null; body: unknown },
  ): Promise<void> {
    await m.query(
      `INSERT INTO payment_events (source, outcome, payment_id, reference, body) VALUES ($1, $2, $3, $4, $5::jsonb)`,
      [e.source, e.outcome, e.paymentId, e.reference, JSON.stringify(e.body ?? null)],
    );
  }

  /** Receipts among `receipts` that some payment already carries. */
  async knownReceipts(m: EntityManager, receipts: string[]): Promise<Set<string>> {
    if (receipts.length === 0) return new Set();
    const rows: { receipt: string }[] = await m.query(
      `SELECT receipt FROM payments WHERE provider = 'mpesa' AND receipt = ANY($1)`,
      [receipts],
    );
    return new Set(rows.map((r) => r.receipt));
  }

  // The outbox of pushes and the schedule of status queries (docs/mobile-money.md, "Exactly once").

  /**
   * Claims queued pushes for `leaseSeconds`. A push still `sending` after its lease was being sent when
   * its worker stopped: its outcome is unknown, so it is never sent again (the payer could be asked
   * twice). It stays pending as `unknown` for `unknownSeconds`: a paid callback of its phone and amount
   * completes it (lockUnknownPush); after that it fails (expireUnknownPushes), and a statement line that
   * shows it paid still completes it (lockReceiptless). `stale` answers the pushes that failed so now.
   */
  claimPushes(
    limit: number,
    leaseSeconds: number,
    unknownSeconds: number,
  ): Promise<{ stale: string[]; claimed: StoredPayment[] }> {
    return this.dataSource.transaction(async (m) => {
      await m.query(
        `UPDATE payments SET push_state = 'unknown', lease_until = NULL, next_attempt_at = now() + $1 * interval '1 second',
                last_error = 'outcome unknown: the worker stopped while sending the STK push; not sent again'
         WHERE status = 'pending' AND push_state = 'sending' AND lease_until < now()`,
        [unknownSeconds],
      );
      const stale: unknown = await m.query(
        `UPDATE payments SET status = 'failed', settled_by = 'push', next_attempt_at = NULL,
                last_error = 'outcome unknown: the worker stopped while sending the STK push, and no callback came'
         WHERE status = 'pending' AND push_state = 'unknown' AND next_attempt_at <= now() RETURNING id`,
      );
      const rows: Row[] = await m.query(
        `WITH c AS (
           UPDATE payments SET push_state = 'sending', push_attempts = push_attempts + 1,
                  lease_until = now() + $2 * interval '1 second'
           WHERE id IN (SELECT id FROM payments
                        WHERE status = 'pending' AND push_state = 'queued' AND next_attempt_at <= now()
                        ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED)
           RETURNING *)
         SELECT ${COLUMNS} FROM c p`,
        [limit, leaseSeconds],
      );
      return {
        stale: returningRows<{ id: string }>(stale).map((r) => r.id),
        expired: [],
        claimed: rows.map(toPayment),
      };
    });
  }

  async markPushed(id: string, requestId: string, merchantRequestId: string, queryAfterSeconds: number) {
    await this.dataSource.query(
      `UPDATE payments SET push_state = 'sent', checkout_request_id = $2, merchant_request_id = $3, lease_until = NULL,
              next_attempt_at = now() + $4 * interval '1 second', last_error = NULL
       WHERE id = $1 AND push_state = 'sending'`,
      [id, requestId, merchantRequestId, queryAfterSeconds],
    );
  }

  /**
   * A push refused in a way that may pass later: queued again after `delayMs`, or failed past
   * `maxAttempts`. Answers whether the payment failed.
   */
  async retryPush(id: string, error: string, delayMs: number, maxAttempts: number): Promise<boolean> {
    const result: unknown = await this.dataSource.query(
      `UPDATE payments SET
         push_state = CASE WHEN push_attempts >= $4 THEN 'failed' ELSE 'queued' END,
         status = CASE WHEN push_attempts >= $4 THEN 'failed' ELSE status END,
         next_attempt_at = CASE WHEN push_attempts >= $4 THEN NULL ELSE now() + $3 * interval '1 millisecond' END,
         lease_until = NULL, last_error = left($2, 500)
       WHERE id = $1 AND push_state = 'sending' AND status = 'pending'
       RETURNING status`,
      [id, error, delayMs, maxAttempts],
    );
    return returningRows<{ status: string }>(result)[0]?.status === 'failed';
  }

  /** A push that cannot be sent: the payment fails. Answers whether it did (it was still being sent). */
  /**
   * A push Daraja may have taken (its answer was lost): never sent again, pending as `unknown` for
   * `unknownSeconds`, as claimPushes does for a push whose worker stopped.
   */
  async unknownPush(id: string, error: string, unknownSeconds: number): Promise<void> {
    await this.dataSource.query(
      `UPDATE payments SET push_state = 'unknown', lease_until = NULL, next_attempt_at = now() + $3 * interval '1 second',
              last_error = left('outcome unknown: ' || $2 || '; not sent again', 500)
       WHERE id = $1 AND push_state = 'sending' AND status = 'pending'`,
      [id, error, unknownSeconds],
    );
  }

  async failPush(id: string, error: string): Promise<boolean> {
    const result: unknown = await this.dataSource.query(
      `UPDATE payments SET push_state = 'failed', status = 'failed', settled_by = 'push', lease_until = NULL,
              next_attempt_at = NULL, last_error = left($2, 500)
       WHERE id = $1 AND push_state = 'sending' AND status = 'pending'
       RETURNING id`,
      [id, error],
    );
    return returningRows(result).length > 0;
  }

  /** Pushes due for a status query (no callback settled them), each moved `leaseSeconds` ahead. */
  async claimQueries(limit: number, leaseSeconds: number): Promise<{ id: string; checkoutRequestId: string }[]> {
    const result: unknown = await this.dataSource.query(
      `UPDATE payments SET query_attempts = query_attempts + 1, next_attempt_at = now() + $2 * interval '1 second'
       WHERE id IN (SELECT id FROM payments
                    WHERE status = 'pending' AND push_state = 'sent' AND next_attempt_at <= now()
                    ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING id, checkout_request_id AS "checkoutRequestId"`,
      [limit, leaseSeconds],
    );
    return returningRows(result);
  }

  async scheduleQuery(id: string, delayMs: number, error: string | null) {
    await this.dataSource.query(
      `UPDATE payments SET next_attempt_at = now() + $2 * interval '1 millisecond', last_error = coalesce(left($3, 500), last_error)
       WHERE id = $1 AND status = 'pending'`,
      [id, delayMs, error],
    );
  }

  // Reads

  /**
   * The payments as the `payment.updated` event carries them, each with the machines whose rooms hold its
   * card (docs/live-events.md): the card's machine and every machine of its owner, whose attendants see
   * the owner's cards (scopeSql). A payment without a card has none: admins alone see it.
   */
  async liveViews(ids: string[]): Promise<{ event: PaymentUpdatedEvent; espIds: string[] }[]> {
    if (ids.length === 0) return [];
    const rows: (Row & { espIds: string[] | null })[] = await this.dataSource.query(
      `SELECT ${COLUMNS},
              (SELECT array_agg(DISTINCT a.esp_id) FROM devices d JOIN devices a
                 ON a.esp_id = d.esp_id OR (d.owner_id IS NOT NULL AND a.owner_id = d.owner_id)
               WHERE d.esp_id = c.esp_id) AS "espIds"
       FROM payments p LEFT JOIN cards c ON c.id = p.card_row_id WHERE p.id = ANY($1::uuid[])`,
      [ids],
    );
    return rows.map(({ espIds, ...row }) => {
      const p = toPayment(row);
      return {
        event: {
          paymentId: p.id,
          cardId: p.cardId,
          status: p.status,
          amount: centsToAmount(p.amountCents),
          receipt: p.receipt,
          completedAt: p.completedAt ? new Date(p.completedAt).toISOString() : null,
        },
        espIds: espIds ?? [],
      };
    });
  }

  async findVisible(actor: Actor, id: string): Promise<StoredPayment | null> {
    const rows: Row[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM payments p LEFT JOIN cards c ON c.id = p.card_row_id
       WHERE p.id = $2 AND (${actor.role === 'admin' ? scopeSql(actor, 'c') : `c.id IS NOT NULL AND ${scopeSql(actor, 'c')}`})`,
      [actor.userId, id],
    );
    return rows[0] ? toPayment(rows[0]) : null;
  }

  async list(actor: Actor, q: PaymentListQuery): Promise<{ rows: StoredPayment[]; total: number }> {
    const where = [
      actor.role === 'admin' ? scopeSql(actor, 'c') : `c.id IS NOT NULL AND ${scopeSql(actor, 'c')}`,
      '($2::text IS NULL OR p.status = $2)',
      '($3::text IS NULL OR p.card_id = $3)',
    ].join(' AND ');
    const params = [actor.userId, q.status ?? null, q.cardId ?? null];
    const [{ total }]: { total: number }[] = await this.dataSource.query(
      `SELECT count(*)::int AS total FROM payments p LEFT JOIN cards c ON c.id = p.card_row_id WHERE ${where}`,
      params,
    );
    const rows: Row[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM payments p LEFT JOIN cards c ON c.id = p.card_row_id WHERE ${where}
       ORDER BY p.created_at DESC, p.id DESC LIMIT $4 OFFSET $5`,
      [...params, q.limit, (q.page - 1) * q.limit],
    );
    return { rows: rows.map(toPayment), total };
  }
}
