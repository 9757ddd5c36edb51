import { Injectable } from '@nestjs/common';
import {
  buildCardsDeltaTopic,
  buildCardsTopic,
  type CardListDeltaPayload,
  type CardListEntry,
  type CardListPayload,
} from '@wv/contracts';
import type { EntityManager } from 'typeorm';
import { centsToAmount, toCents } from '../money/money.js';
import { CardListRepository, type ListedCard, type MachineListState } from './card-list.repository.js';

/** Machines given their first list, or a new one after an owner change, per flush (a fleet's first start is spread). */
const MACHINES_PER_FLUSH = 2000;
/** Cards one reconciliation looks at; past it the next flush goes on (the first start of a large deployment). */
const CARDS_PER_RECONCILE = 20_000;
/** A delta not acknowledged within this many seconds is taken as lost: the machine gets the full list. */
export const DELTA_ACK_TIMEOUT_S = 30;

export interface PlannedMessage {
  topic: string;
  payload: CardListPayload | CardListDeltaPayload;
  retain: boolean;
  /** Cards in the payload, to cut publishes into reasonable Redis messages. */
  weight: number;
}

export interface FlushInput {
  /** Changed cards, by card id or row id. */
  cardIds: string[];
  /** Machines that may hold an older list than the newest. */
  espIds: string[];
  /** Also compare every card with what the lists carry (the safety net for a lost change). */
  reconcile: boolean;
}

const toEntry = (c: ListedCard): CardListEntry => ({
  cardId: c.cardId,
  status: c.status,
  balance: centsToAmount(toCents(c.balance)),
  dailyLimitLitres: c.dailyLimitLitres === null ? null : Number(c.dailyLimitLitres),
});

const sameValues = (a: ListedCard, b: ListedCard) =>
  a.groupKey === b.groupKey &&
  a.status === b.status &&
  toCents(a.balance) === toCents(b.balance) &&
  (a.dailyLimitLitres === null ? null : Number(a.dailyLimitLitres)) ===
    (b.dailyLimitLitres === null ? null : Number(b.dailyLimitLitres));

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  (map.get(key) ?? map.set(key, []).get(key)!).push(value);
}

/**
 * Decides, inside one transaction, which machine gets what (docs/device-protocol.md, "Card lists"):
 * - a machine without a list, or whose owner changed, gets the full list;
 * - a machine whose group of cards changed gets a delta when it acknowledged the version the delta
 *   builds on, and otherwise the full list; while a full list it has not acknowledged is on its way,
 *   further changes wait (the list is marked stale) until it acknowledges or reconnects;
 * - a machine to check (it connected, or went back, or left a delta unacknowledged for
 *   DELTA_ACK_TIMEOUT_S) gets the full list when it does not hold the newest.
 */
export interface FlushPlan {
  messages: PlannedMessage[];
  /** The reconciliation found more cards out of step than it takes at once. */
  reconcileUnfinished: boolean;
}

@Injectable()
export class CardListPlanner {
  constructor(private readonly lists: CardListRepository) {}

  async plan(m: EntityManager, input: FlushInput): Promise<FlushPlan> {
    const full = new Set<string>();
    const changed = new Set(input.cardIds);

    const moved = await this.lists.outOfStep(m, MACHINES_PER_FLUSH);
    if (moved.length > 0) {
      const espIds = moved.map((r) => r.espId);
      await this.lists.adoptOwners(m, espIds);
      espIds.forEach((e) => full.add(e));
      // Their cards now belong to the lists of another group of machines.
      for (const id of await this.lists.cardIdsAt(m, espIds)) changed.add(id);
    }
    let reconcileUnfinished = false;
    if (input.reconcile) {
      const outOfStep = await this.lists.cardsOutOfStep(m, CARDS_PER_RECONCILE);
      outOfStep.forEach((id) => changed.add(id));
      reconcileUnfinished = outOfStep.length === CARDS_PER_RECONCILE;
    }

    const checked = new Set(input.espIds);
    for (const espId of await this.lists.unacknowledgedDeltas(m, DELTA_ACK_TIMEOUT_S, MACHINES_PER_FLUSH)) {
      checked.add(espId);
    }

    const { upserts, removals } = await this.diffCards(m, [...changed]);
    const groups = [...new Set([...upserts.keys(), ...removals.keys()])];
    const machines = await this.lists.lockMachines(m, groups, [...full, ...checked]);

    const sent: { machine: MachineListState; full: boolean }[] = [];
    const stale: string[] = [];
    for (const machine of machines) {
      const holdsNewest = machine.version > 0 && machine.ackedVersion === machine.version && !machine.stale;
      const groupChanged = upserts.has(machine.groupKey) || removals.has(machine.groupKey);
      if (full.has(machine.espId) || (checked.has(machine.espId) && !holdsNewest)) {
        sent.push({ machine, full: true });
      } else if (!groupChanged) {
        continue;
      } else if (holdsNewest) {
        sent.push({ machine, full: false });
      } else if (machine.fullVersion === machine.version || machine.stale) {
        stale.push(machine.espId);
      } else {
        sent.push({ machine, full: true });
      }
    }

    const versions = await this.lists.advance(
      m,
      sent.map((s) => ({ espId: s.machine.espId, full: s.full })),
      stale,
    );
    const groupLists = new Map<string, CardListEntry[]>();
    const messages: PlannedMessage[] = [];
    for (const { machine, full: isFull } of sent) {
      const version = versions.get(machine.espId)!;
      if (isFull) {
        let cards = groupLists.get(machine.groupKey);
        if (!cards) {
          cards = (await this.lists.groupCards(m, machine.groupKey)).map(toEntry);
          groupLists.set(machine.groupKey, cards);
        }
        messages.push({
          topic: buildCardsTopic(machine.espId),
          payload: { version, cards },
          retain: true,
          weight: cards.length,
        });
      } else {
        const up = upserts.get(machine.groupKey) ?? [];
        const gone = removals.get(machine.groupKey) ?? [];
        messages.push({
          topic: buildCardsDeltaTopic(machine.espId),
          payload: { version, baseVersion: machine.version, upserts: up, removals: gone },
          retain: false,
          weight: up.length + gone.length,
        });
      }
    }
    return { messages, reconcileUnfinished };
  }

  /** What changed in the lists of each group: upserted cards and removed card ids. */
  private async diffCards(
    m: EntityManager,
    ids: string[],
  ): Promise<{ upserts: Map<string, CardListEntry[]>; removals: Map<string, string[]> }> {
    const upserts = new Map<string, CardListEntry[]>();
    const removals = new Map<string, string[]>();
    if (ids.length === 0) return { upserts, removals };
    const current = await this.lists.currentCards(m, ids);
    const currentIds = new Set(current.map((c) => c.cardId));
    // A name that is no card now may be one the lists still carry (by card id): it is removed.
    const published = await this.lists.publishedCards(m, [...new Set([...ids, ...currentIds])]);
    const before = new Map(published.map((p) => [p.cardId, p]));
    const record: ListedCard[] = [];
    for (const card of current) {
      const was = before.get(card.cardId);
      if (was && sameValues(was, card)) continue;
      push(upserts, card.groupKey, toEntry(card));
      if (was && was.groupKey !== card.groupKey) push(removals, was.groupKey, card.cardId);
      record.push(card);
    }
    const gone = published.filter((p) => !currentIds.has(p.cardId));
    for (const p of gone) push(removals, p.groupKey, p.cardId);
    await this.lists.recordPublished(
      m,
      record,
      gone.map((p) => p.cardId),
    );
    return { upserts, removals };
  }
}
