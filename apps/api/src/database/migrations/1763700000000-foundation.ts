import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Users, devices and announced MAC addresses: the owners of every later row. */
export class Foundation1763700000000 implements MigrationInterface {
  name = 'Foundation1763700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE users (
        id uuid PRIMARY KEY,
        role text NOT NULL CHECK (role IN ('admin', 'manager', 'attendant')),
        first_name text NOT NULL,
        last_name text NOT NULL,
        username text NOT NULL,
        email text,
        phone_number text NOT NULL,
        location text NOT NULL,
        password_hash text NOT NULL,
        manager_id uuid REFERENCES users(id),
        tokens_valid_after timestamptz NOT NULL DEFAULT now(),
        created_at timestamptz NOT NULL DEFAULT now(),
        deleted_at timestamptz
      )`);
    // Uniqueness holds among active users only: a removed attendant keeps their history, not their phone.
    await q.query(`CREATE UNIQUE INDEX users_username_uq ON users (lower(username)) WHERE deleted_at IS NULL`);
    await q.query(
      `CREATE UNIQUE INDEX users_email_uq ON users (lower(email)) WHERE deleted_at IS NULL AND email IS NOT NULL`,
    );
    await q.query(`CREATE UNIQUE INDEX users_phone_uq ON users (phone_number) WHERE deleted_at IS NULL`);
    await q.query(`CREATE INDEX users_manager_idx ON users (manager_id) WHERE manager_id IS NOT NULL`);

    await q.query(`
      CREATE TABLE devices (
        esp_id text PRIMARY KEY,
        mac_address text UNIQUE,
        owner_id uuid REFERENCES users(id),
        attendant_id uuid REFERENCES users(id),
        location text,
        key_hash text,
        key_rotated_at timestamptz,
        online boolean NOT NULL DEFAULT false,
        last_seen_at timestamptz,
        firmware text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX devices_owner_idx ON devices (owner_id) WHERE owner_id IS NOT NULL`);
    await q.query(`CREATE UNIQUE INDEX devices_attendant_uq ON devices (attendant_id) WHERE attendant_id IS NOT NULL`);

    await q.query(`
      CREATE TABLE mac_announcements (
        mac_address text PRIMARY KEY,
        firmware text,
        provision_secret_hash text,
        first_seen_at timestamptz NOT NULL DEFAULT now(),
        last_seen_at timestamptz NOT NULL DEFAULT now(),
        assigned_esp_id text REFERENCES devices(esp_id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE mac_announcements`);
    await q.query(`DROP TABLE devices`);
    await q.query(`DROP TABLE users`);
  }
}
