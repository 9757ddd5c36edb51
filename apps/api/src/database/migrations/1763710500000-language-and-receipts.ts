import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each user's language (docs/alarms.md, "Languages"): every email and SMS to them is written in it, and
 * the web app switches to it after sign-in. And the outbox of the M-Pesa receipts sent to payers by SMS
 * (docs/mobile-money.md, "Receipt by SMS"): one row per completed payment, written in the transaction
 * that completes it, so a payment is never receipted twice. The receipt number, card and amount are the
 * payment's; the row keeps the card's balance right after the credit.
 */
export class LanguageAndReceipts1763710500000 implements MigrationInterface {
  name = 'LanguageAndReceipts1763710500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE users ADD COLUMN language text NOT NULL DEFAULT 'en' CONSTRAINT users_language_ck CHECK (language IN ('en', 'sw'))`,
    );
    await q.query(`
      CREATE TABLE payment_receipts (
        payment_id uuid PRIMARY KEY REFERENCES payments(id) ON DELETE CASCADE,
        address text NOT NULL,
        balance_after numeric(14,2) NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'sending', 'sent', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        lease_until timestamptz,
        last_error text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        sent_at timestamptz
      )`);
    await q.query(
      `CREATE INDEX payment_receipts_due_idx ON payment_receipts (next_attempt_at) WHERE status IN ('pending', 'sending')`,
    );
    await q.query(
      `CREATE INDEX payment_receipts_settled_idx ON payment_receipts (updated_at) WHERE status IN ('sent', 'failed')`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE payment_receipts`);
    await q.query(`ALTER TABLE users DROP COLUMN language`);
  }
}
