import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { DomainEvents } from '../events/domain-events.js';
import { TelemetryStore } from '../telemetry/telemetry-store.js';
import { AlarmEngine } from './alarm-engine.js';

/**
 * A machine that connects clears its offline alarm at once (docs/alarms.md, "offline") and starts its
 * no_sales clock ("no_sales"). Machine status changes are decided in the broker process, which emits
 * them once per change; the sweep clears what this misses.
 */
@Injectable()
export class AlarmStatusListener implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Alarms');
  private off?: () => void;

  constructor(
    private readonly events: DomainEvents,
    private readonly engine: AlarmEngine,
    private readonly store: TelemetryStore,
  ) {}

  onApplicationBootstrap(): void {
    this.off = this.events.on('machine.status', ({ espId, online, lastSeen }) => {
      if (!online) return;
      this.engine
        .run(async (m, changes) => {
          await this.store.noteOnline(m, espId, new Date(lastSeen));
          await this.engine.clear(m, changes, espId, 'offline', new Date());
        })
        .catch((error: Error) => this.logger.warn(`Offline alarm of ${espId} not cleared: ${error.message}`));
    });
  }

  onModuleDestroy(): void {
    this.off?.();
  }
}
