import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { cardListAckPayloadSchema } from '@wv/contracts';
import { CONNECTION_WORK_LINGER_MS, KeyedBatch } from '../common/keyed-batch.js';
import { CardListSignals } from './card-list-signals.js';
import { CardListRepository } from './card-list.repository.js';

/**
 * The broker role's side of the card lists (docs/device-protocol.md, "Card lists"): a machine that
 * connects, or acknowledges a version older than the one it acknowledged before, may hold an older
 * list than the newest; the flusher then sends it the full list.
 */
@Injectable()
export class CardListDeviceService implements OnApplicationShutdown {
  private readonly logger = new Logger('CardLists');
  /**
   * Acknowledgements, recorded in batches: every machine of a reconnect storm says which version it holds
   * (docs/device-protocol.md, "Boot, offline and reconnect"), and one statement each was a query per reconnect
   * (docs/architecture.md, "Connections"). One batch runs at a time, so a machine's acknowledgements are
   * recorded in the order they came; two of one machine in the same batch count as the newer one, which is
   * what the machine holds.
   */
  private readonly acks = new KeyedBatch<string, number>((batch) => this.record(batch), {
    lingerMs: CONNECTION_WORK_LINGER_MS,
    maxBatch: 1000,
  });

  constructor(
    private readonly lists: CardListRepository,
    private readonly signals: CardListSignals,
  ) {}

  /** Machines that just connected (in one batch, docs/architecture.md, "Connections"). */
  async onMachinesConnected(espIds: string[]): Promise<void> {
    await this.signals.checkMachines(await this.lists.behind(espIds));
  }

  /**
   * `cards/ack`: an invalid payload is ignored, as for `config/ack` (it carries no money). Resolves once recorded;
   * a batch that failed was logged once, and the machine acknowledges again at its next connection.
   */
  onAck(espId: string, json: unknown): Promise<void> {
    const ack = cardListAckPayloadSchema.safeParse(json);
    if (!ack.success) return Promise.resolve();
    return this.acks.add(espId, ack.data.version).then(
      () => undefined,
      () => undefined,
    );
  }

  /** Records what waits now (the broker role calls this after its broker closed, before the database pool closes). */
  async drain(): Promise<void> {
    await this.acks.drain().catch(() => undefined);
  }

  onApplicationShutdown(): void {
    this.acks.close();
  }

  private async record(batch: Map<string, number>): Promise<void> {
    const acks = [...batch].map(([espId, version]) => ({ espId, version }));
    try {
      const states = await this.lists.acknowledgeMany(acks);
      const check: string[] = [];
      for (const { espId, version } of acks) {
        const state = states.get(espId);
        if (!state) continue;
        if (version > state.version) {
          this.logger.warn(
            `${espId} holds card list version ${version}, newer than ${state.version}: sending a newer list`,
          );
        }
        // Went back (its flash lost the list), beyond the newest, or changes wait for this acknowledgement.
        if (version < state.ackedBefore || version > state.version || state.stale) check.push(espId);
      }
      await this.signals.checkMachines(check);
    } catch (error) {
      this.logger.warn(`Could not record ${acks.length} card list acknowledgement(s): ${(error as Error).message}`);
      throw error;
    }
  }
}
