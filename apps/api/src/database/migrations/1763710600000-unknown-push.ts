import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An STK push whose worker stopped before Daraja's answer was recorded is `unknown` (docs/mobile-money.md,
 * "Exactly once"): never sent again, pending until its paid callback (matched by phone and amount) or a
 * time limit, and completed by a statement line that shows it paid even after that.
 */
export class UnknownPush1763710600000 implements MigrationInterface {
  name = 'UnknownPush1763710600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE payments DROP CONSTRAINT payments_push_state_check`);
    await q.query(
      `ALTER TABLE payments ADD CONSTRAINT payments_push_state_check
         CHECK (push_state IN ('none', 'queued', 'sending', 'sent', 'failed', 'unknown'))`,
    );
    await q.query(
      `CREATE INDEX payments_unknown_push_idx ON payments (amount, created_at) WHERE push_state = 'unknown'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX payments_unknown_push_idx`);
    await q.query(`UPDATE payments SET push_state = 'failed' WHERE push_state = 'unknown'`);
    await q.query(`ALTER TABLE payments DROP CONSTRAINT payments_push_state_check`);
    await q.query(
      `ALTER TABLE payments ADD CONSTRAINT payments_push_state_check
         CHECK (push_state IN ('none', 'queued', 'sending', 'sent', 'failed'))`,
    );
  }
}
