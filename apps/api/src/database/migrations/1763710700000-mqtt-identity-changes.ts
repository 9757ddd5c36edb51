import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * New and rotated device keys waiting to reach an external broker's identities (docs/external-mqtt.md,
 * "Identities"): written in the transaction that issues the key, deleted once the broker has it.
 */
export class MqttIdentityChanges1763710700000 implements MigrationInterface {
  name = 'MqttIdentityChanges1763710700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE mqtt_identity_changes (
         id bigserial PRIMARY KEY,
         esp_id text NOT NULL,
         sealed_key text NOT NULL,
         created_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE mqtt_identity_changes`);
  }
}
