import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What the server must know to hand a device key only to the machine that asked for it first
 * (docs/security.md, provisioning):
 * - `announced_via`: how the MAC was announced. `mqtt` is a hello from the client that pinned the
 *   provisioning secret; `rest` is POST /devices/announce, which proves nothing about who will read the
 *   assignment, so it sticks and such a MAC gets its key from the admin only. NULL is a provisioning
 *   connect without a hello: kept (it pins the secret) but not listed for the admin.
 * - `pending_device_key`: the device key of an assignment waiting for MQTT delivery, encrypted, kept
 *   only until the machine first connects with it; PostgreSQL, not the broker's memory, is what
 *   survives a restart and is read by whichever process runs the broker.
 */
export class ProvisioningTrust1763700400000 implements MigrationInterface {
  name = 'ProvisioningTrust1763700400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE mac_announcements
        ADD COLUMN announced_via text CHECK (announced_via IN ('mqtt', 'rest')),
        ADD COLUMN pending_device_key text`);
    // Rows from before could have been pinned by anyone after a REST announce: a MAC without a pinned
    // secret was announced over REST; a pinned one is listed again at its next hello (a provisioning
    // machine says hello on every connect).
    await q.query(`UPDATE mac_announcements SET announced_via = 'rest' WHERE provision_secret_hash IS NULL`);
    // Found on every machine connect (to clear a delivered assignment): only the few pending rows.
    await q.query(`
      CREATE INDEX mac_announcements_pending_idx ON mac_announcements (assigned_esp_id)
      WHERE pending_device_key IS NOT NULL`);
    // The cap on unassigned rows and the purge of stale ones read only these.
    await q.query(`
      CREATE INDEX mac_announcements_unassigned_idx ON mac_announcements (last_seen_at)
      WHERE assigned_esp_id IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX mac_announcements_unassigned_idx`);
    await q.query(`DROP INDEX mac_announcements_pending_idx`);
    await q.query(`ALTER TABLE mac_announcements DROP COLUMN pending_device_key, DROP COLUMN announced_via`);
  }
}
