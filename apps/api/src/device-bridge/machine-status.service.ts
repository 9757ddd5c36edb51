import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DomainEvents } from '../events/domain-events.js';
import { CONNECTION_WORK_LINGER_MS, KeyedBatch } from '../common/keyed-batch.js';
import { returningRows } from '../common/returning-rows.js';

interface StatusReport {
  online: boolean;
  firmware: string | null;
  /** The broker process that holds (or held) the machine's session; null when unknown (an external broker). */
  via: string | null;
}

/**
 * Online/offline and last-seen time of machines, kept in the database and emitted live.
 *
 * Reports are coalesced per machine and written in batches (a reconnect storm of 20,000 machines was
 * 20,000 to 40,000 single-row UPDATEs that starved the pool, and failed disconnects left machines
 * "online" for good). The newest report of a machine wins; a batch that fails is retried with backoff
 * unless a newer report for the same machine replaced it.
 */
@Injectable()
export class MachineStatusService implements OnApplicationShutdown {
  private readonly logger = new Logger(MachineStatusService.name);
  private readonly batch = new KeyedBatch<string, StatusReport>((reports) => this.write(reports), {
    lingerMs: CONNECTION_WORK_LINGER_MS,
    maxBatch: 1000,
    retryMs: 500,
    merge: (waiting, next) => ({ online: next.online, firmware: next.firmware ?? waiting.firmware, via: next.via }),
  });

  constructor(
    private readonly dataSource: DataSource,
    private readonly events: DomainEvents,
  ) {}

  /**
   * Records that a machine is online or offline now; resolves once written (rejects if its batch failed). `via`: the
   * broker process reporting it. An offline report from a process that no longer holds the machine (it moved to
   * another broker process) changes nothing.
   */
  async set(espId: string, online: boolean, details: { firmware?: string; via?: string } = {}): Promise<void> {
    await this.batch.add(espId, { online, firmware: details.firmware ?? null, via: details.via ?? null });
  }

  /**
   * Emits `machine.status` once per change. The change is decided by the UPDATE's own condition: when
   * two broker processes report the same machine at once, the second UPDATE waits for the first's row
   * lock and re-checks the condition on the new row, so only one of them reports a change.
   */
  private async write(reports: Map<string, StatusReport>): Promise<void> {
    const espIds = [...reports.keys()];
    const column = <K extends keyof StatusReport>(key: K, ids = espIds) => ids.map((id) => reports.get(id)![key]);
    try {
      const changed = returningRows<{ espId: string; online: boolean; lastSeen: Date }>(
        await this.dataSource.query(
          `UPDATE devices d SET online = v.online, last_seen_at = now(), firmware = coalesce(v.firmware, d.firmware),
             online_via = CASE WHEN v.online THEN coalesce(v.via, d.online_via) END
           FROM unnest($1::text[], $2::boolean[], $3::text[], $4::text[]) AS v(esp_id, online, firmware, via)
           WHERE d.esp_id = v.esp_id AND d.online IS DISTINCT FROM v.online
             AND (v.online OR v.via IS NULL OR d.online_via IS NULL OR d.online_via = v.via)
           RETURNING d.esp_id AS "espId", d.online, d.last_seen_at AS "lastSeen"`,
          [espIds, column('online'), column('firmware'), column('via')],
        ),
      );
      const done = new Set(changed.map((row) => row.espId));
      const rest = espIds.filter((id) => !done.has(id));
      if (rest.length > 0) {
        // No change of status: seen now, and an online machine's session may have moved to another broker process.
        await this.dataSource.query(
          `UPDATE devices d SET last_seen_at = now(), firmware = coalesce(v.firmware, d.firmware),
             online_via = CASE WHEN v.online THEN coalesce(v.via, d.online_via) ELSE d.online_via END
           FROM unnest($1::text[], $2::boolean[], $3::text[], $4::text[]) AS v(esp_id, online, firmware, via)
           WHERE d.esp_id = v.esp_id AND d.online = v.online`,
          [rest, column('online', rest), column('firmware', rest), column('via', rest)],
        );
      }
      for (const row of changed) {
        this.events.emit('machine.status', {
          espId: row.espId,
          online: row.online,
          lastSeen: row.lastSeen.toISOString(),
        });
      }
    } catch (error) {
      this.logger.warn(
        `Could not record the status of ${espIds.length} machine(s); retrying: ${(error as Error).message}`,
      );
      throw error;
    }
  }

  /**
   * Machines recorded online through a broker process that is gone (not in `live`) are offline: at a broker's start
   * (its previous incarnation's machines) and from time to time (a process killed without a goodbye). Machines of
   * the other live broker processes keep their status (docs/scale-out.md). Returns how many changed.
   */
  async markOrphansOffline(live: string[]): Promise<number> {
    const changed = returningRows<{ espId: string; lastSeen: Date }>(
      await this.dataSource.query(
        `UPDATE devices SET online = false, online_via = NULL
         WHERE online AND (online_via IS NULL OR NOT (online_via = ANY($1::text[])))
         RETURNING esp_id AS "espId", last_seen_at AS "lastSeen"`,
        [live],
      ),
    );
    for (const row of changed) {
      this.events.emit('machine.status', { espId: row.espId, online: false, lastSeen: row.lastSeen.toISOString() });
    }
    return changed.length;
  }

  /** Writes what waits now (the broker calls this once it has closed, before the database pool closes). */
  async drain(): Promise<void> {
    await this.batch.drain().catch(() => undefined);
  }

  onApplicationShutdown(): void {
    this.batch.close();
  }
}
