import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DomainEvents } from '../common/domain-events.js';

/** Online/offline and last-seen time of machines, kept in the database and emitted live. */
@Injectable()
export class MachineStatusService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly events: DomainEvents,
  ) {}

  async set(espId: string, online: boolean, details: { firmware?: string } = {}): Promise<void> {
    const rows: { lastSeen: Date; changed: boolean }[] = await this.dataSource
      .query(
        `UPDATE devices d SET online = $2, last_seen_at = now(), firmware = coalesce($3, d.firmware)
       FROM (SELECT online AS was FROM devices WHERE esp_id = $1) prev
       WHERE d.esp_id = $1 RETURNING d.last_seen_at AS "lastSeen", prev.was IS DISTINCT FROM $2 AS changed`,
        [espId, online, details.firmware ?? null],
      )
      .then((r: unknown[]) => (Array.isArray(r[0]) ? (r[0] as never) : (r as never)));
    const row = rows[0];
    if (row?.changed) this.events.emit('machine.status', { espId, online, lastSeen: row.lastSeen.toISOString() });
  }

  /** At broker start nothing is connected yet: machines that were online are offline until they return. */
  async markAllOffline(): Promise<void> {
    await this.dataSource.query(`UPDATE devices SET online = false WHERE online`);
  }
}
