import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Float accounts, float requests, idempotency keys and the audit trail (docs/decisions/0003-money-ledger.md).
 * Cards and ledger_entries exist since the device bridge; this adds the float side of the ledger and
 * the guarantees the application relies on, so that a bug cannot silently create or destroy money.
 */
export class MoneyLedger1763700300000 implements MigrationInterface {
  name = 'MoneyLedger1763700300000';

  async up(q: QueryRunner): Promise<void> {
    // One float account per attendant; its id in ledger_entries is the attendant's user id.
    await q.query(`
      CREATE TABLE float_accounts (
        attendant_id uuid PRIMARY KEY REFERENCES users(id),
        balance numeric(14,2) NOT NULL DEFAULT 0 CONSTRAINT float_accounts_not_negative CHECK (balance >= 0),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);

    await q.query(`
      CREATE TABLE float_requests (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        attendant_id uuid NOT NULL REFERENCES users(id),
        requested_amount numeric(14,2) NOT NULL CHECK (requested_amount > 0),
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
        approved_amount numeric(14,2) CHECK (approved_amount > 0),
        requested_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        decided_at timestamptz,
        decided_by uuid REFERENCES users(id),
        CONSTRAINT float_requests_decision CHECK (
          (status = 'pending' AND approved_amount IS NULL AND decided_at IS NULL)
          OR (status = 'approved' AND approved_amount IS NOT NULL AND decided_at IS NOT NULL)
          OR (status = 'rejected' AND approved_amount IS NULL AND decided_at IS NOT NULL))
      )`);
    await q.query(`CREATE INDEX float_requests_attendant_idx ON float_requests (attendant_id, requested_at DESC)`);
    await q.query(
      `CREATE INDEX float_requests_pending_idx ON float_requests (attendant_id, requested_at, id) WHERE status = 'pending'`,
    );

    // A request is credited at most once, even if application code raced (approval reference = request id).
    await q.query(
      `CREATE UNIQUE INDEX ledger_float_approval_uq ON ledger_entries (reference) WHERE kind = 'float_approval'`,
    );

    // Idempotency-Key: the key, a hash of the request and the first answer, written in the same
    // transaction as the money movement it guards, so that a crash cannot keep one without the other.
    await q.query(`
      CREATE TABLE idempotency_keys (
        caller_id uuid NOT NULL,
        key varchar(255) NOT NULL,
        request_hash char(64) NOT NULL,
        status_code integer,
        response jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (caller_id, key)
      )`);
    await q.query(`CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at)`);

    await q.query(`
      CREATE TABLE audit_log (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        actor_id uuid,
        action text NOT NULL,
        entity text NOT NULL CHECK (entity IN ('user', 'device', 'tariffs', 'wifi', 'card', 'float_request', 'float')),
        entity_id text NOT NULL,
        before jsonb,
        after jsonb,
        at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await q.query(`CREATE INDEX audit_log_at_idx ON audit_log (at DESC, id DESC)`);
    await q.query(`CREATE INDEX audit_log_actor_idx ON audit_log (actor_id, at DESC) WHERE actor_id IS NOT NULL`);
    await q.query(`CREATE INDEX audit_log_entity_idx ON audit_log (entity, at DESC)`);
    await q.query(`
      CREATE FUNCTION audit_log_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'audit entries are immutable'; END $$`);
    await q.query(`
      CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log
      FOR EACH ROW EXECUTE FUNCTION audit_log_immutable()`);

    // Every money movement is audited by whoever writes it (the sale ingest included), in the same
    // statement's transaction: one audit row per ledger entry, before and after balance.
    await q.query(`
      CREATE FUNCTION ledger_entries_audit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO audit_log (actor_id, action, entity, entity_id, before, after)
        SELECT n.actor_id, 'ledger.' || n.kind, n.account_type, coalesce(c.card_id, n.account_id::text),
               jsonb_build_object('balance', n.balance_after - n.amount),
               jsonb_build_object('balance', n.balance_after, 'amount', n.amount, 'kind', n.kind,
                                  'reference', n.reference, 'ledgerEntryId', n.id)
        FROM new_entries n
        LEFT JOIN cards c ON n.account_type = 'card' AND c.id = n.account_id
        ORDER BY n.id;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER ledger_entries_audited AFTER INSERT ON ledger_entries
      REFERENCING NEW TABLE AS new_entries FOR EACH STATEMENT EXECUTE FUNCTION ledger_entries_audit()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER ledger_entries_audited ON ledger_entries`);
    await q.query(`DROP FUNCTION ledger_entries_audit()`);
    await q.query(`DROP TABLE audit_log`);
    await q.query(`DROP FUNCTION audit_log_immutable()`);
    await q.query(`DROP TABLE idempotency_keys`);
    await q.query(`DROP INDEX ledger_float_approval_uq`);
    await q.query(`DROP TABLE float_requests`);
    await q.query(`DROP TABLE float_accounts`);
  }
}
