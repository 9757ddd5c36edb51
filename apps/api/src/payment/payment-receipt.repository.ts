import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { nextAttemptAfterFailure } from '../common/backoff-sql.js';
import { returningRows } from '../common/returning-rows.js';
import { centsToDecimal, toCents } from '../money/money.js';

/** A claimed receipt SMS: what its text says and where it goes. */
export interface ClaimedReceipt {
  paymentId: string;
  address: string;
  receipt: string | null;
  cardId: string;
  amountCents: number;
  balanceAfterCents: number;
  /** The card owner manager's language as stored (null when the card's machine has no owner). */
  language: string | null;
  /**
   * Whether the SMS may say the card's new balance: a push a card's staff started, or a payer whose number
   * is the card's own; not a stranger paying a paybill to a card ID they know.
   */
  showBalance: boolean;
}

/** A number the SMS API can reach: E.164, not masked (statements hide digits), not the all-zero placeholder. */
const REACHABLE = '^\\+[1-9][0-9]{7,14}$';
const PLACEHOLDER = '^\\+[0-9]{1,3}0+$';

/**
 * The outbox of M-Pesa receipts sent to payers by SMS (docs/mobile-money.md, "Receipt by SMS"): one row
 * per completed payment (its primary key), queued in the transaction that completes the payment and
 * claimed by the receipt dispatcher with a lease, like the alarm messages (docs/alarms.md, "What is
 * guaranteed when a process dies").
 */
@Injectable()
export class PaymentReceiptRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Queues the receipt of a payment that just completed, in the caller's transaction; nothing when the
   * payer's number is unknown or cannot be reached, or when the payment already has one. Answers
   * whether a row was queued.
   */
  async queue(m: EntityManager, paymentId: string, balanceAfterCents: number): Promise<boolean> {
    const result: unknown = await m.query(
      `INSERT INTO payment_receipts (payment_id, address, balance_after, status)
       SELECT p.id, p.phone_number, $2::numeric, 'pending' FROM payments p
       WHERE p.id = $1 AND p.status = 'completed' AND p.phone_number ~ '${REACHABLE}' AND p.phone_number !~ '${PLACEHOLDER}'
       ON CONFLICT (payment_id) DO NOTHING
       RETURNING payment_id`,
      [paymentId, centsToDecimal(balanceAfterCents)],
    );
    return returningRows(result).length > 0;
  }

  /**
   * Claims due receipts for `leaseSeconds`. A receipt still `sending` after its lease was claimed when its
   * sender stopped: if it was never handed to the SMS API (`handed_at` unset) it is due again (released);
   * if it was, the API may have taken it, and it is given up (failed), never sent again, so that nobody gets
   * a receipt twice. Answers how many were released and given up, and the claimed ones.
   */
  claim(
    limit: number,
    leaseSeconds: number,
  ): Promise<{ released: number; givenUp: number; claimed: ClaimedReceipt[] }> {
    return this.dataSource.transaction(async (m) => {
      const released: unknown = await m.query(
        `UPDATE payment_receipts SET status = 'pending', lease_until = NULL, next_attempt_at = now(), updated_at = now()
         WHERE status = 'sending' AND lease_until < now() AND handed_at IS NULL RETURNING payment_id`,
      );
      const givenUp: unknown = await m.query(
        `UPDATE payment_receipts SET status = 'failed', lease_until = NULL, updated_at = now(),
                last_error = 'outcome unknown: the sender stopped after handing the receipt to the SMS API; not sent again'
         WHERE status = 'sending' AND lease_until < now() RETURNING payment_id`,
      );
      const rows: (Omit<ClaimedReceipt, 'amountCents' | 'balanceAfterCents'> & { amount: string; balance: string })[] =
        await m.query(
          `WITH c AS (
             UPDATE payment_receipts SET status = 'sending', attempts = attempts + 1, updated_at = now(),
                    lease_until = now() + $2 * interval '1 second', handed_at = NULL
             WHERE payment_id IN (SELECT payment_id FROM payment_receipts
                                  WHERE status = 'pending' AND next_attempt_at <= now()
                                  ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED)
             RETURNING payment_id, address, balance_after)
           SELECT c.payment_id AS "paymentId", c.address, p.receipt, p.card_id AS "cardId", p.amount::text AS amount,
                  c.balance_after::text AS balance, u.language,
                  (p.method = 'stk' OR k.phone_number = c.address) IS TRUE AS "showBalance"
           FROM c JOIN payments p ON p.id = c.payment_id
           LEFT JOIN cards k ON k.id = p.card_row_id
           LEFT JOIN devices d ON d.esp_id = k.esp_id
           LEFT JOIN users u ON u.id = d.owner_id`,
          [limit, leaseSeconds],
        );
      return {
        released: returningRows(released).length,
        givenUp: returningRows(givenUp).length,
        claimed: rows.map(({ amount, balance, ...r }) => ({
          ...r,
          amountCents: toCents(amount),
          balanceAfterCents: toCents(balance),
        })),
      };
    });
  }

  /**
   * The receipt is about to be handed to the SMS API, recorded before its request is written (as the alarm
   * messages' markHanded). Answers false if its lease ended meanwhile: it must not be sent.
   */
  async markHanded(paymentId: string): Promise<boolean> {
    const result: unknown = await this.dataSource.query(
      `UPDATE payment_receipts SET handed_at = now(), updated_at = now()
       WHERE payment_id = $1 AND status = 'sending' AND lease_until > now() RETURNING payment_id`,
      [paymentId],
    );
    return returningRows(result).length > 0;
  }

  /** The SMS API took the receipt. */
  async markSent(paymentId: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE payment_receipts SET status = 'sent', sent_at = now(), updated_at = now(), lease_until = NULL, last_error = NULL
       WHERE payment_id = $1 AND status = 'sending'`,
      [paymentId],
    );
  }

  /**
   * The SMS API did not take it: `permanent` (or the last attempt) marks it failed; otherwise it waits an
   * exponential backoff with jitter, as the alarm messages do.
   */
  async markFailed(
    paymentId: string,
    error: string,
    opts: { permanent: boolean; retryDelayMs: number; maxAttempts: number },
  ): Promise<void> {
    await this.dataSource.query(
      `UPDATE payment_receipts SET
         status = CASE WHEN $3 OR attempts >= $5 THEN 'failed' ELSE 'pending' END,
         next_attempt_at = ${nextAttemptAfterFailure('$4')},
         lease_until = NULL, handed_at = NULL, last_error = left($2, 500), updated_at = now()
       WHERE payment_id = $1 AND status = 'sending'`,
      [paymentId, error, opts.permanent, opts.retryDelayMs, opts.maxAttempts],
    );
  }

  /** Deletes settled receipts (sent or failed) last changed before `before`, at most `limit`; answers how many. */
  async purge(before: Date, limit: number): Promise<number> {
    const result: unknown = await this.dataSource.query(
      `DELETE FROM payment_receipts WHERE payment_id IN (
         SELECT payment_id FROM payment_receipts WHERE status IN ('sent', 'failed') AND updated_at < $1 LIMIT $2)
       RETURNING payment_id`,
      [before, limit],
    );
    return returningRows(result).length;
  }
}
