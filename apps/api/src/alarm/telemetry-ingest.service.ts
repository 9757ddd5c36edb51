import { Inject, Injectable, Logger } from '@nestjs/common';
import { telemetryPayloadSchema } from '@wv/contracts';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { TelemetryStore } from '../telemetry/telemetry-store.js';
import type { RawTelemetryMessage, TelemetryRow } from '../telemetry/telemetry.types.js';
import { AlarmEngine } from './alarm-engine.js';
import { AlarmRepository } from './alarm.repository.js';
import { applyReadings } from './telemetry-rules.js';

/** A reading's own clock may run at most this far ahead of the server's (as for sales). */
const MAX_AHEAD_MS = 5 * 60 * 1000;
const DAY_MS = 24 * 3600 * 1000;

/**
 * The worker's side of telemetry (docs/alarms.md, "Telemetry"): parses a batch, stores every valid
 * reading, moves each machine's latest values and applies the telemetry rules, all in one
 * transaction with the machines' health rows locked, so that two workers never interleave the
 * readings of one machine (the temperature rule counts readings in a row).
 */
@Injectable()
export class TelemetryIngestService {
  private readonly logger = new Logger('Telemetry');

  constructor(
    private readonly store: TelemetryStore,
    private readonly alarms: AlarmRepository,
    private readonly engine: AlarmEngine,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Invalid readings are dropped (telemetry carries no money; the next reading follows). */
  parse(messages: RawTelemetryMessage[]): TelemetryRow[] {
    const rows: TelemetryRow[] = [];
    const oldest = Date.now() - this.config.alarms.telemetryRetentionDays * DAY_MS;
    for (const message of messages) {
      let json: unknown;
      try {
        json = JSON.parse(message.payload);
      } catch {
        this.logger.debug(`${message.espId}: telemetry is not valid JSON`);
        continue;
      }
      const parsed = telemetryPayloadSchema.safeParse(json);
      if (!parsed.success) {
        this.logger.debug(`${message.espId}: invalid telemetry: ${parsed.error.issues[0]?.message}`);
        continue;
      }
      const { time, ...fields } = parsed.data;
      const receivedAt = new Date(message.receivedAt);
      const at = time ? new Date(time) : receivedAt;
      if (at.getTime() > receivedAt.getTime() + MAX_AHEAD_MS || at.getTime() < oldest) continue;
      rows.push({ espId: message.espId, at, ...fields });
    }
    return rows;
  }

  async ingest(messages: RawTelemetryMessage[]): Promise<number> {
    const rows = this.parse(messages);
    if (rows.length === 0) return 0;
    const byMachine = new Map<string, TelemetryRow[]>();
    for (const r of rows) byMachine.set(r.espId, [...(byMachine.get(r.espId) ?? []), r]);
    await this.engine.run(async (m, changes) => {
      const health = await this.store.lockHealth(m, [...byMachine.keys()]);
      const known = rows.filter((r) => health.has(r.espId));
      await this.store.insertReadings(m, known);
      const settings = await this.alarms.settingsFor(m, [...health.keys()]);
      // Most readings find everything well: a clearing is only tried where an alarm is active.
      const active = await this.alarms.activeKinds(m, [...health.keys()]);
      const now = new Date();
      const machines = [...health].sort(([a], [b]) => a.localeCompare(b));
      const verdicts = new Map(
        machines.map(([espId, h]) => [espId, applyReadings(h, byMachine.get(espId) ?? [], settings.get(espId)!)]),
      );
      // One statement for every machine's latest values; alarms change only where a verdict needs it.
      await this.store.saveReadings(
        m,
        machines.map(([, h]) => h),
      );
      for (const [espId] of machines) {
        const activeHere = active.get(espId);
        for (const [kind, verdict] of [...verdicts.get(espId)!].sort(([a], [b]) => a.localeCompare(b))) {
          if (verdict.action === 'open') {
            if (!activeHere?.has(kind))
              await this.engine.open(m, changes, { espId, kind, details: verdict.details, now });
          } else if (activeHere?.has(kind)) {
            await this.engine.clear(m, changes, espId, kind, now);
          }
        }
      }
    });
    return rows.length;
  }
}
