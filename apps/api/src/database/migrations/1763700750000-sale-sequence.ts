import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Selling offline (docs/device-protocol.md, "Sequence numbers"; docs/rest-api.md, "Selling offline"):
 * - sales carry the machine's `seq`, whether they were made `offline`, and the litres `dispensed`;
 * - per machine, the highest seq received and the ranges below it never received (gaps), and the
 *   sales a machine last said it still holds (`queued`);
 * - cards can be blocked, replaced, and limited to litres per day; sales made with them anyway are
 *   kept with the flags `blocked_card` and `over_limit`;
 * - the ledger gets the kinds `refund` (short dispense) and `transfer-out` / `transfer-in` (replace).
 * The widened checks are added NOT VALID, as in the foreign-card migration: every existing row passed
 * the narrower check they replace; new rows are checked.
 */
export class SaleSequence1763700750000 implements MigrationInterface {
  name = 'SaleSequence1763700750000';

  async up(q: QueryRunner): Promise<void> {
    // Constant defaults and nullable columns: no table rewrite, whatever the size of sales.
    await q.query(`ALTER TABLE sales ADD COLUMN seq bigint`);
    await q.query(`ALTER TABLE sales ADD COLUMN offline boolean NOT NULL DEFAULT false`);
    await q.query(`ALTER TABLE sales ADD COLUMN dispensed numeric(12,3)`);
    await q.query(`ALTER TABLE sales DROP CONSTRAINT sales_flag_check`);
    await q.query(
      `ALTER TABLE sales ADD CONSTRAINT sales_flag_check
       CHECK (flag IN ('unknown_card', 'overdrawn', 'foreign_card', 'blocked_card', 'over_limit')) NOT VALID`,
    );

    await q.query(`
      CREATE TABLE machine_seq_state (
        esp_id text PRIMARY KEY,
        last_seq bigint NOT NULL DEFAULT 0 CHECK (last_seq >= 0),
        queued integer CHECK (queued >= 0),
        queued_at timestamptz,
        -- fresh sales whose seq was already taken by another sale of the machine (stored all the same)
        reused_seqs bigint NOT NULL DEFAULT 0,
        -- how often the machine's counter started again at 1
        restarts integer NOT NULL DEFAULT 0,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE machine_seq_gaps (
        esp_id text NOT NULL,
        from_seq bigint NOT NULL,
        to_seq bigint NOT NULL,
        first_seen_at timestamptz NOT NULL,
        PRIMARY KEY (esp_id, from_seq),
        CONSTRAINT machine_seq_gaps_range CHECK (from_seq >= 1 AND from_seq <= to_seq)
      )`);
    // The sales_gap alarm sweeps the oldest open gaps of every machine.
    await q.query(`CREATE INDEX machine_seq_gaps_seen_idx ON machine_seq_gaps (first_seen_at)`);

    await q.query(
      `ALTER TABLE cards ADD COLUMN status text NOT NULL DEFAULT 'active' CONSTRAINT cards_status_check CHECK (status IN ('active', 'blocked'))`,
    );
    await q.query(`ALTER TABLE cards ADD COLUMN blocked_at timestamptz`);
    await q.query(`ALTER TABLE cards ADD COLUMN blocked_reason text`);
    await q.query(
      `ALTER TABLE cards ADD COLUMN daily_limit_litres numeric(12,3) CONSTRAINT cards_daily_limit_positive CHECK (daily_limit_litres > 0)`,
    );
    // The card that took this one's holder and balance; a replaced card stays blocked.
    await q.query(`ALTER TABLE cards ADD COLUMN replaced_by text`);
    await q.query(
      `ALTER TABLE cards ADD CONSTRAINT cards_blocked_consistent CHECK ((status = 'blocked') = (blocked_at IS NOT NULL))`,
    );
    await q.query(
      `ALTER TABLE cards ADD CONSTRAINT cards_replaced_blocked CHECK (replaced_by IS NULL OR status = 'blocked')`,
    );

    await q.query(`ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_kind_check`);
    await q.query(
      `ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_kind_check
       CHECK (kind IN ('float_approval', 'load', 'top-up', 'sale', 'refund', 'transfer-out', 'transfer-in')) NOT VALID`,
    );
    // A sale is refunded at most once, whatever application code does (the reference is the sale's id).
    await q.query(`CREATE UNIQUE INDEX ledger_refund_uq ON ledger_entries (reference) WHERE kind = 'refund'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ledger_refund_uq`);
    await q.query(`ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_kind_check`);
    await q.query(
      `ALTER TABLE ledger_entries ADD CONSTRAINT ledger_entries_kind_check
       CHECK (kind IN ('float_approval', 'load', 'top-up', 'sale')) NOT VALID`,
    );
    await q.query(`ALTER TABLE cards DROP CONSTRAINT cards_replaced_blocked`);
    await q.query(`ALTER TABLE cards DROP CONSTRAINT cards_blocked_consistent`);
    for (const column of ['replaced_by', 'daily_limit_litres', 'blocked_reason', 'blocked_at', 'status']) {
      await q.query(`ALTER TABLE cards DROP COLUMN ${column}`);
    }
    await q.query(`DROP TABLE machine_seq_gaps`);
    await q.query(`DROP TABLE machine_seq_state`);
    await q.query(`ALTER TABLE sales DROP CONSTRAINT sales_flag_check`);
    await q.query(`UPDATE sales SET flag = NULL WHERE flag IN ('blocked_card', 'over_limit')`);
    await q.query(
      `ALTER TABLE sales ADD CONSTRAINT sales_flag_check CHECK (flag IN ('unknown_card', 'overdrawn', 'foreign_card')) NOT VALID`,
    );
    for (const column of ['dispensed', 'offline', 'seq']) await q.query(`ALTER TABLE sales DROP COLUMN ${column}`);
  }
}
