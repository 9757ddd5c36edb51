import { Injectable } from '@nestjs/common';
import type { CardListVersionState } from '@wv/contracts';
import { CardListRepository } from './card-list.repository.js';

/** What other domains may read of a machine's card list (GET /machines/{espId}/sync). */
@Injectable()
export class CardListVersions {
  constructor(private readonly lists: CardListRepository) {}

  /** Both 0 before the machine's first list. The caller checks the caller's scope first. */
  async forMachine(espId: string): Promise<CardListVersionState> {
    const state = await this.lists.state(espId);
    return { cardListVersion: state?.version ?? 0, cardListAckedVersion: state?.ackedVersion ?? 0 };
  }
}
