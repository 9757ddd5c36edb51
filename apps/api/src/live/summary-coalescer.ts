import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import type { SummaryEvent } from '@wv/contracts';
import { LiveRepository } from './live.repository.js';

/** How often dirty machines are flushed: at most ~3 `summary` events per machine and second. */
export const SUMMARY_FLUSH_MS = 300;

/**
 * Coalesces `summary` events (docs/live-events.md, "Events"): a committed batch only marks its (machine, local
 * day) pairs dirty; every SUMMARY_FLUSH_MS the dirty pairs are read from the daily rollup in one query
 * and sent once each, so a machine selling ten times a second still costs browsers three events.
 * The figures are read after the commit, so they are the rollup's truth, never a running guess.
 */
@Injectable()
export class SummaryCoalescer implements OnModuleDestroy {
  private readonly logger = new Logger(SummaryCoalescer.name);
  private dirty = new Map<string, { espId: string; day: string }>();
  private timer?: NodeJS.Timeout;
  private flushing = false;
  private send: (summaries: SummaryEvent[]) => void = () => undefined;

  constructor(private readonly repository: LiveRepository) {}

  /** Receives each flush's events together, so that they travel as one broadcast. */
  onFlush(send: (summaries: SummaryEvent[]) => void): void {
    this.send = send;
  }

  mark(espId: string, day: string): void {
    this.dirty.set(`${espId}\u0000${day}`, { espId, day });
    this.schedule();
  }

  onModuleDestroy(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.dirty.clear();
  }

  private schedule(): void {
    if (this.timer || this.flushing) return;
    this.timer = setTimeout(() => void this.flush(), SUMMARY_FLUSH_MS);
    this.timer.unref();
  }

  private async flush(): Promise<void> {
    this.timer = undefined;
    const pairs = [...this.dirty.values()];
    this.dirty = new Map();
    this.flushing = true;
    try {
      const figures = await this.repository.dailyFigures(pairs);
      this.send(
        figures.map((r) => ({
          machineId: r.espId,
          date: r.day,
          coinBased: { dailyPriceCollected: Number(r.coinPrice), volumeSold: Number(r.coinVolume) },
          cardBased: { dailyPriceCollected: Number(r.cardPrice), volumeSold: Number(r.cardVolume) },
        })),
      );
    } catch (error) {
      // Not retried: the machine's next sale sends fresh figures, and dashboards also fetch them.
      this.logger.warn(`Could not read summaries: ${(error as Error).message}`);
    } finally {
      this.flushing = false;
      if (this.dirty.size > 0) this.schedule();
    }
  }
}
