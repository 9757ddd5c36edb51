import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Mobile-money payments (docs/mobile-money.md): one row per payment, which is also the durable outbox
 * of its STK push and the schedule of its status query; every callback and statement line as
 * received; and the ledger's guarantee that an M-Pesa receipt credits a card at most once.
 */
export class MobileMoney1763701050000 implements MigrationInterface {
  name = 'MobileMoney1763701050000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE payments (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        provider text NOT NULL CHECK (provider IN ('mpesa')),
        method text NOT NULL CHECK (method IN ('stk', 'paybill')),
        status text NOT NULL CHECK (status IN ('pending', 'completed', 'failed', 'cancelled', 'unmatched')),
        card_row_id uuid REFERENCES cards(id),
        card_id text,
        amount numeric(14,2) NOT NULL CHECK (amount > 0),
        phone_number text,
        receipt text,
        account_reference text,
        result_code text,
        result_desc text,
        settled_by text CHECK (settled_by IN ('callback', 'query', 'confirmation', 'statement', 'match', 'push')),
        requested_by uuid REFERENCES users(id),
        push_state text NOT NULL DEFAULT 'none' CHECK (push_state IN ('none', 'queued', 'sending', 'sent', 'failed')),
        push_attempts integer NOT NULL DEFAULT 0,
        query_attempts integer NOT NULL DEFAULT 0,
        lease_until timestamptz,
        next_attempt_at timestamptz,
        merchant_request_id text,
        checkout_request_id text,
        last_error text,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        completed_at timestamptz,
        CONSTRAINT payments_completed_consistent CHECK ((status = 'completed') = (completed_at IS NOT NULL)),
        CONSTRAINT payments_completed_card CHECK (status <> 'completed' OR card_row_id IS NOT NULL)
      )`);
    // A receipt belongs to one payment: the second arrival of a receipt finds the first.
    await q.query(`CREATE UNIQUE INDEX payments_receipt_uq ON payments (provider, receipt) WHERE receipt IS NOT NULL`);
    await q.query(
      `CREATE UNIQUE INDEX payments_checkout_uq ON payments (provider, checkout_request_id) WHERE checkout_request_id IS NOT NULL`,
    );
    await q.query(
      `CREATE INDEX payments_due_idx ON payments (next_attempt_at) WHERE status = 'pending' AND push_state IN ('queued', 'sending', 'sent')`,
    );
    await q.query(`CREATE INDEX payments_card_idx ON payments (card_row_id, created_at DESC)`);
    await q.query(`CREATE INDEX payments_status_idx ON payments (status, created_at DESC)`);

    // Every callback, confirmation and statement line as it came, with what it did: the admin's trail
    // of callbacks for payments never started, amounts that did not match and duplicates.
    await q.query(`
      CREATE TABLE payment_events (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        source text NOT NULL CHECK (source IN ('stk-callback', 'stk-query', 'c2b-validation', 'c2b-confirmation', 'statement')),
        outcome text NOT NULL,
        payment_id uuid REFERENCES payments(id),
        reference text,
        body jsonb NOT NULL,
        received_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await q.query(`CREATE INDEX payment_events_payment_idx ON payment_events (payment_id, id)`);
    await q.query(`CREATE INDEX payment_events_received_idx ON payment_events (received_at DESC, id DESC)`);

    await q.query(`ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_kind_check`);
    await q.query(
      `ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_kind_check
       CHECK (kind IN ('float_approval', 'load', 'top-up', 'sale', 'refund', 'transfer-out', 'transfer-in', 'mobile-top-up')) NOT VALID`,
    );
    // A receipt credits at most once, whatever application code does: the reference is the M-Pesa receipt
    // (or, for a push settled by the status query, which reports no receipt, its CheckoutRequestID).
    await q.query(
      `CREATE UNIQUE INDEX ledger_mobile_top_up_uq ON ledger_entries (reference) WHERE kind = 'mobile-top-up'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ledger_mobile_top_up_uq`);
    await q.query(`ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_kind_check`);
    await q.query(
      `ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_kind_check
       CHECK (kind IN ('float_approval', 'load', 'top-up', 'sale', 'refund', 'transfer-out', 'transfer-in')) NOT VALID`,
    );
    await q.query(`DROP TABLE payment_events`);
    await q.query(`DROP TABLE payments`);
  }
}
