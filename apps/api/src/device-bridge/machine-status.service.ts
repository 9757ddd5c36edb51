import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DomainEvents } from '../events/domain-events.js';
import { returningRows } from '../common/returning-rows.js';

/** Online/offline and last-seen time of machines, kept in the database and emitted live. */
@Injectable()
export class MachineStatusService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly events: DomainEvents,
  ) {}

  /**
   * Emits `machine.status` once per change. The change is decided by the UPDATE's own condition:
   * when a machine's connect and its retained status arrive together, the second UPDATE waits for
   * the first's row lock and then re-checks the condition on the new row, so only one of them
   * reports a change (a previous value read in the same statement would be the same stale snapshot
   * for both, and the activity feed said "went online" twice).
   */
  async set(espId: string, online: boolean, details: { firmware?: string } = {}): Promise<void> {
    const params = [espId, online, details.firmware ?? null];
    const changed = returningRows<{ lastSeen: Date }>(
      await this.dataSource.query(
        `UPDATE devices SET online = $2, last_seen_at = now(), firmware = coalesce($3, firmware)
         WHERE esp_id = $1 AND online IS DISTINCT FROM $2 RETURNING last_seen_at AS "lastSeen"`,
        params,
      ),
    );
    if (changed[0]) {
      this.events.emit('machine.status', { espId, online, lastSeen: changed[0].lastSeen.toISOString() });
      return;
    }
    await this.dataSource.query(
      `UPDATE devices SET last_seen_at = now(), firmware = coalesce($3, firmware) WHERE esp_id = $1 AND online = $2`,
      params,
    );
  }

  /** At broker start nothing is connected yet: machines that were online are offline until they return. */
  async markAllOffline(): Promise<void> {
    await this.dataSource.query(`UPDATE devices SET online = false WHERE online`);
  }
}
