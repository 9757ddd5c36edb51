import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Usernames are unique again among active users (case-insensitive), and an attendant's company name,
 * which several attendants may share, gets a column of its own. Until now the attendant registration
 * stored the company name as the username, so existing attendants keep it as their company name; where
 * active users share a username, the oldest keeps it and the others get theirs with a suffix taken from
 * their id.
 */
export class UniqueUsernames1763700600000 implements MigrationInterface {
  name = 'UniqueUsernames1763700600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users ADD COLUMN company_name text`);
    await q.query(`UPDATE users SET company_name = username WHERE role = 'attendant'`);
    await q.query(`
      UPDATE users u SET username = u.username || '-' || left(u.id::text, 8)
      FROM (
        SELECT id, row_number() OVER (PARTITION BY lower(username) ORDER BY created_at, id) AS n
        FROM users WHERE deleted_at IS NULL
      ) ranked
      WHERE ranked.id = u.id AND ranked.n > 1`);
    await q.query(`DROP INDEX users_username_idx`);
    await q.query(`CREATE UNIQUE INDEX users_username_uq ON users (lower(username)) WHERE deleted_at IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX users_username_uq`);
    await q.query(`CREATE INDEX users_username_idx ON users (lower(username))`);
    await q.query(`ALTER TABLE users DROP COLUMN company_name`);
  }
}
