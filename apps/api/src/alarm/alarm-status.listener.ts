import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { DomainEvents } from '../events/domain-events.js';
import { TelemetryStore } from '../telemetry/telemetry-store.js';
import { CONNECTION_WORK_LINGER_MS, KeyedBatch } from '../common/keyed-batch.js';
import { AlarmEngine } from './alarm-engine.js';
import { AlarmRepository } from './alarm.repository.js';

/**
 * A machine that connects clears its offline alarm at once (docs/alarms.md, "offline") and starts its
 * no_sales clock ("no_sales"). Machine status changes are decided in the broker process, which emits
 * them once per change; the sweep clears what this misses. The machines that came online within a few
 * milliseconds are handled in one transaction (docs/architecture.md, "Connections"): a reconnect storm
 * of thousands of machines is a few statements, not a transaction per machine.
 */
@Injectable()
export class AlarmStatusListener implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Alarms');
  private off?: () => void;
  private readonly online = new KeyedBatch<string, Date>(
    (batch) =>
      this.engine.run(async (m, changes) => {
        await this.store.noteOnline(m, batch);
        changes.updated.push(...(await this.alarms.clearActiveMany(m, [...batch.keys()], 'offline', new Date())));
      }),
    { lingerMs: CONNECTION_WORK_LINGER_MS, maxBatch: 1000 },
  );

  constructor(
    private readonly events: DomainEvents,
    private readonly engine: AlarmEngine,
    private readonly store: TelemetryStore,
    private readonly alarms: AlarmRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.alarms.enabled) {
      this.logger.warn('The alarm engine is off (ALARMS_ENABLED=false): telemetry is dropped and no alarm opens');
      return;
    }
    this.off = this.events.on('machine.status', ({ espId, online, lastSeen }) => {
      if (!online) return;
      this.online
        .add(espId, new Date(lastSeen))
        .catch((error: Error) => this.logger.warn(`Offline alarm of ${espId} not cleared: ${error.message}`));
    });
  }

  onModuleDestroy(): void {
    this.off?.();
    this.online.close();
  }
}
