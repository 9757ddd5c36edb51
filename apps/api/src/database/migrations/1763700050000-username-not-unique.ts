import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Usernames are not sign-in identifiers (email and phone are), and an attendant's username is their
 * company name (docs/web-app.md, "Screens": "Company Name (stored as username)"): two attendants of one company share it.
 */
export class UsernameNotUnique1763700050000 implements MigrationInterface {
  name = 'UsernameNotUnique1763700050000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX users_username_uq`);
    await q.query(`CREATE INDEX users_username_idx ON users (lower(username))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX users_username_idx`);
    await q.query(`CREATE UNIQUE INDEX users_username_uq ON users (lower(username)) WHERE deleted_at IS NULL`);
  }
}
