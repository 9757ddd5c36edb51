import { Logger } from '@nestjs/common';
import { ErrorCode } from '@wv/contracts';
import { AppError } from '../common/app-error.js';

/** How often the backlog and Redis memory are sampled; between samples the last answer holds. */
const SAMPLE_EVERY_MS = 1_000;
/** Share of Redis maxmemory past which new sales are refused: the rest is for the jobs already taken. */
const MEMORY_CEILING = 0.9;

export interface IngestLoad {
  /** Sales jobs not yet stored (waiting, delayed, active). */
  backlog: number;
  usedMemory: number;
  /** Redis maxmemory; 0 when unbounded. */
  maxMemory: number;
}

/**
 * Back-pressure on ingest: once the sales backlog passes its bound (INGEST_MAX_BACKLOG), or Redis
 * nears its maxmemory, new sales are refused with a stable reason before Redis runs out of memory,
 * where every write (queued sales included) would fail. Refused sales are not lost: REST answers 503
 * with Retry-After and the MQTT publish gets no PUBACK, so the machine keeps the sale and sends it
 * again. Sampled at most once a second, in the background, so ingest never waits for the sample.
 */
export class IngestBackpressure {
  private readonly logger = new Logger('IngestBackpressure');
  private sampledAt = 0;
  private sampling = false;
  private refusal: string | null = null;

  constructor(
    private readonly readLoad: () => Promise<IngestLoad>,
    private readonly maxBacklog: number,
  ) {}

  /** Throws IngestBacklogFull while the backlog or Redis memory is past its bound. */
  assertOpen(): void {
    if (!this.sampling && Date.now() - this.sampledAt >= SAMPLE_EVERY_MS) void this.sample();
    if (this.refusal) throw new AppError(ErrorCode.IngestBacklogFull);
  }

  private async sample(): Promise<void> {
    this.sampling = true;
    try {
      this.update(await this.readLoad());
    } catch {
      // Redis unreachable: the enqueue itself fails and says so; keep the last answer.
    } finally {
      this.sampledAt = Date.now();
      this.sampling = false;
    }
  }

  private update({ backlog, usedMemory, maxMemory }: IngestLoad): void {
    let refusal: string | null = null;
    if (backlog > this.maxBacklog) {
      refusal = `${backlog} sales jobs wait in the queue, more than INGEST_MAX_BACKLOG (${this.maxBacklog})`;
    } else if (maxMemory > 0 && usedMemory >= maxMemory * MEMORY_CEILING) {
      refusal = `Redis uses ${usedMemory} of its ${maxMemory} bytes (maxmemory)`;
    }
    if (refusal && !this.refusal) this.logger.warn(`Refusing new sales until the backlog drains: ${refusal}`);
    if (!refusal && this.refusal) this.logger.log('Accepting new sales again: the backlog is under its bounds');
    this.refusal = refusal;
  }
}

/** Reads `used_memory` and `maxmemory` from the text of Redis' INFO memory. */
export function parseMemoryInfo(info: string): { usedMemory: number; maxMemory: number } {
  const field = (name: string) => Number(new RegExp(`^${name}:(\\d+)`, 'm').exec(info)?.[1] ?? 0);
  return { usedMemory: field('used_memory'), maxMemory: field('maxmemory') };
}
