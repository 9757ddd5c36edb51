import { Injectable, Logger } from '@nestjs/common';
import { cardListAckPayloadSchema } from '@wv/contracts';
import { CardListSignals } from './card-list-signals.js';
import { CardListRepository } from './card-list.repository.js';

/**
 * The broker role's side of the card lists (docs/device-protocol.md, "Card lists"): a machine that
 * connects, or acknowledges a version older than the one it acknowledged before, may hold an older
 * list than the newest; the flusher then sends it the full list.
 */
@Injectable()
export class CardListDeviceService {
  private readonly logger = new Logger('CardLists');
  /**
   * The broker hands device messages over without waiting for the previous one, so two
   * acknowledgements of one machine could be recorded out of order (the older one last, which would
   * look like a machine that went back): each machine's are recorded one after the other.
   */
  private readonly acks = new Map<string, Promise<void>>();

  constructor(
    private readonly lists: CardListRepository,
    private readonly signals: CardListSignals,
  ) {}

  /** Machines that just connected (in one batch, docs/architecture.md, "Connections"). */
  async onMachinesConnected(espIds: string[]): Promise<void> {
    await this.signals.checkMachines(await this.lists.behind(espIds));
  }

  /** `cards/ack`: an invalid payload is ignored, as for `config/ack` (it carries no money). */
  onAck(espId: string, json: unknown): Promise<void> {
    const ack = cardListAckPayloadSchema.safeParse(json);
    if (!ack.success) return Promise.resolve();
    const previous = this.acks.get(espId) ?? Promise.resolve();
    const next = previous
      .then(() => this.record(espId, ack.data.version))
      .catch((error: Error) => {
        this.logger.warn(`Could not record card list acknowledgement of ${espId}: ${error.message}`);
      });
    this.acks.set(espId, next);
    void next.finally(() => {
      if (this.acks.get(espId) === next) this.acks.delete(espId);
    });
    return next;
  }

  private async record(espId: string, version: number): Promise<void> {
    const result = await this.lists.acknowledge(espId, version);
    if (!result) return;
    if (version > result.version) {
      this.logger.warn(
        `${espId} holds card list version ${version}, newer than ${result.version}: sending a newer list`,
      );
    }
    // Went back (its flash lost the list), beyond the newest, or changes wait for this acknowledgement.
    if (version < result.ackedBefore || version > result.version || result.stale)
      await this.signals.checkMachine(espId);
  }
}
