import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sales with their rollups, the dead letters, device configuration history, and the cards and
 * ledger that card sales debit. Money is numeric(14,2), volume numeric(12,3): never floating point.
 */
export class DeviceBridge1763700100000 implements MigrationInterface {
  name = 'DeviceBridge1763700100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE cards (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        card_id text NOT NULL UNIQUE,
        esp_id text NOT NULL REFERENCES devices(esp_id),
        holder_first_name text NOT NULL,
        holder_last_name text NOT NULL,
        phone_number text,
        card_type varchar(32) NOT NULL,
        balance numeric(14,2) NOT NULL DEFAULT 0,
        registered_by uuid REFERENCES users(id),
        date_registered timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX cards_esp_idx ON cards (esp_id, date_registered)`);

    // Immutable: every balance change is one row here, in the same transaction as the change.
    await q.query(`
      CREATE TABLE ledger_entries (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        account_type text NOT NULL CHECK (account_type IN ('float', 'card')),
        account_id uuid NOT NULL,
        kind text NOT NULL CHECK (kind IN ('float_approval', 'load', 'top-up', 'sale')),
        amount numeric(14,2) NOT NULL,
        balance_after numeric(14,2) NOT NULL,
        reference text,
        actor_id uuid,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX ledger_account_idx ON ledger_entries (account_type, account_id, id)`);
    await q.query(`
      CREATE FUNCTION ledger_entries_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'ledger entries are immutable'; END $$`);
    await q.query(`
      CREATE TRIGGER ledger_entries_no_change BEFORE UPDATE OR DELETE ON ledger_entries
      FOR EACH ROW EXECUTE FUNCTION ledger_entries_immutable()`);

    await q.query(`
      CREATE TABLE sales (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        esp_id text NOT NULL,
        event_id varchar(64) NOT NULL,
        kind text NOT NULL CHECK (kind IN ('coin', 'card')),
        price numeric(14,2) NOT NULL,
        volume numeric(12,3) NOT NULL,
        water_type text NOT NULL CHECK (water_type IN ('pure', 'fresh', 'cold')),
        card_id text,
        flag text CHECK (flag IN ('unknown_card', 'overdrawn')),
        sold_at timestamptz NOT NULL,
        local_date date NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now(),
        source text NOT NULL CHECK (source IN ('mqtt', 'rest'))
      )`);
    // Exactly once: the same (esp_id, event_id) is stored once however often it is delivered.
    await q.query(`CREATE UNIQUE INDEX sales_event_uq ON sales (esp_id, event_id)`);
    // Transaction pages: per machine and kind, newest first, keyset on (sold_at, id).
    await q.query(`CREATE INDEX sales_page_idx ON sales (esp_id, kind, sold_at DESC, id DESC)`);
    await q.query(`CREATE INDEX sales_card_idx ON sales (card_id, sold_at DESC) WHERE card_id IS NOT NULL`);

    for (const [table, bucket] of [
      ['sales_daily', 'day'],
      ['sales_monthly', 'month'],
    ]) {
      await q.query(`
        CREATE TABLE ${table} (
          esp_id text NOT NULL,
          ${bucket} date NOT NULL,
          kind text NOT NULL CHECK (kind IN ('coin', 'card')),
          price_total numeric(16,2) NOT NULL DEFAULT 0,
          volume_total numeric(16,3) NOT NULL DEFAULT 0,
          sales_count integer NOT NULL DEFAULT 0,
          PRIMARY KEY (esp_id, ${bucket}, kind)
        )`);
      await q.query(`CREATE INDEX ${table}_${bucket}_idx ON ${table} (${bucket}, esp_id)`);
    }

    await q.query(`
      CREATE TABLE dead_letters (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        esp_id text,
        topic text NOT NULL,
        reason text NOT NULL,
        payload text NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now(),
        -- which delivery and item this is, so that a retried job does not store it twice
        delivery_key text UNIQUE
      )`);
    await q.query(`CREATE INDEX dead_letters_received_idx ON dead_letters (received_at DESC, id DESC)`);

    await q.query(`
      CREATE TABLE wifi_credentials (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        esp_id text NOT NULL REFERENCES devices(esp_id),
        ssid text NOT NULL,
        password text NOT NULL,
        created_by uuid REFERENCES users(id),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX wifi_credentials_esp_idx ON wifi_credentials (esp_id, id DESC)`);
    await q.query(`
      CREATE TABLE tariffs (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        esp_id text NOT NULL REFERENCES devices(esp_id),
        cold_tariff numeric(14,2) NOT NULL,
        fresh_tariff numeric(14,2) NOT NULL,
        cold_calb numeric(14,3) NOT NULL,
        fresh_calb numeric(14,3) NOT NULL,
        created_by uuid REFERENCES users(id),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX tariffs_esp_idx ON tariffs (esp_id, id DESC)`);
    await q.query(`ALTER TABLE devices ADD COLUMN config_version integer NOT NULL DEFAULT 0`);
    await q.query(`ALTER TABLE devices ADD COLUMN config_applied_version integer NOT NULL DEFAULT 0`);
    await q.query(`ALTER TABLE devices ADD COLUMN config_applied_at timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const column of ['config_applied_at', 'config_applied_version', 'config_version']) {
      await q.query(`ALTER TABLE devices DROP COLUMN ${column}`);
    }
    for (const table of [
      'tariffs',
      'wifi_credentials',
      'dead_letters',
      'sales_monthly',
      'sales_daily',
      'sales',
      'ledger_entries',
      'cards',
    ]) {
      await q.query(`DROP TABLE ${table}`);
    }
    await q.query(`DROP FUNCTION ledger_entries_immutable()`);
  }
}
