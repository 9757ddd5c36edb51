import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { PendingKeySealer } from './pending-key-sealer.js';

/** One machine's new device key, waiting to reach the external broker's identities. */
export interface BrokerIdentityChange {
  id: string;
  espId: string;
  /** The key, or null when it was sealed under another JWT_SECRET and can no longer be opened. */
  deviceKey: string | null;
}

/**
 * The durable outbox of device identities for an external broker that keeps them itself (Mosquitto's dynamic
 * security, docs/external-mqtt.md, "Identities"). A new or rotated device key is recorded in the same transaction
 * as the device row, so the broker learns every key the database holds, exactly in order, even when it was
 * unreachable at the time; a relay in the broker role applies and deletes the records.
 *
 * The broker needs the key itself (it checks the password), and only a hash is stored with the device, so the
 * record holds the key sealed as pending assignments are (AES-256-GCM under a key derived from JWT_SECRET) and
 * lives only until the broker has it. In every other mode nothing is recorded.
 */
@Injectable()
export class BrokerIdentityChanges {
  private readonly sealer: PendingKeySealer;
  readonly enabled: boolean;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.enabled = config.mqtt.mode === 'external' && config.mqtt.external?.authMode === 'mosquitto-dynsec';
    this.sealer = new PendingKeySealer(config.jwt.secret, 'wv-broker-identity');
  }

  /** Records, inside the caller's transaction, that `espId` now has `deviceKey`. */
  async keyIssued(manager: EntityManager, espId: string, deviceKey: string): Promise<void> {
    if (!this.enabled) return;
    await manager.query(`INSERT INTO mqtt_identity_changes (esp_id, sealed_key) VALUES ($1, $2)`, [
      espId,
      this.sealer.seal(deviceKey, binding(espId)),
    ]);
  }

  /** The oldest records, at most `limit`, in the order they were made. */
  async oldest(manager: EntityManager, limit: number): Promise<BrokerIdentityChange[]> {
    const rows: { id: string; esp_id: string; sealed_key: string }[] = await manager.query(
      `SELECT id::text, esp_id, sealed_key FROM mqtt_identity_changes ORDER BY id LIMIT $1`,
      [limit],
    );
    return rows.map((r) => ({
      id: r.id,
      espId: r.esp_id,
      deviceKey: this.sealer.open(r.sealed_key, binding(r.esp_id)),
    }));
  }

  async remove(manager: EntityManager, ids: string[]): Promise<void> {
    if (ids.length) await manager.query(`DELETE FROM mqtt_identity_changes WHERE id = ANY($1::bigint[])`, [ids]);
  }

  /** Machines whose latest key has not reached the broker yet. */
  async pendingEspIds(manager: EntityManager): Promise<Set<string>> {
    const rows: { esp_id: string }[] = await manager.query(`SELECT DISTINCT esp_id FROM mqtt_identity_changes`);
    return new Set(rows.map((r) => r.esp_id));
  }
}

function binding(espId: string) {
  return { macAddress: 'broker-identity', espId };
}
