import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An admin may deactivate an account (docs/rest-api.md, "Accounts and sessions"): it keeps its row and
 * history but cannot sign in; null means active.
 */
export class UserDeactivation1763710100000 implements MigrationInterface {
  name = 'UserDeactivation1763710100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users ADD COLUMN deactivated_at timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users DROP COLUMN deactivated_at`);
  }
}
