import { Injectable } from '@nestjs/common';
import {
  ErrorCode,
  type AddCardCommand,
  type BlockCardRequest,
  type CardHistoryRow,
  type CardLimitsRequest,
  type ReplaceCardRequest,
  type CardRow,
  type CardSummary,
  type TopUpCommand,
} from '@wv/contracts';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import type { Actor } from '../common/actor.js';
import { AppError } from '../common/app-error.js';
import { AuditTrail } from '../audit/audit-trail.js';
import { DeviceDirectory } from '../device/device-directory.js';
import { DomainEvents } from '../events/domain-events.js';
import { IdempotencyService, type IdempotentCall } from '../ledger/idempotency.service.js';
import { LedgerService } from '../ledger/ledger.service.js';
import { amountToCents, centsToAmount } from '../money/money.js';
import { CardRepository, type StoredCard } from './card.repository.js';

/**
 * Prepaid cards (docs/rest-api.md, "Endpoints"): an attendant registers a card at their device, loading its
 * balance from their float, and tops it up from float; card sales debit it (sale ingest).
 */
@Injectable()
export class CardService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly cards: CardRepository,
    private readonly devices: DeviceDirectory,
    private readonly ledger: LedgerService,
    private readonly audit: AuditTrail,
    private readonly idempotency: IdempotencyService,
    private readonly events: DomainEvents,
  ) {}

  /** After the commit: the machines' card lists follow (docs/device-protocol.md, "Card lists"). */
  private changed(...cardIds: string[]): () => void {
    return () => this.events.emit('cards.changed', { cardIds });
  }

  register(actor: Actor, input: AddCardCommand, call: IdempotentCall): Promise<{ id: string }> {
    return this.idempotency.run(call, async (m) => {
      const espId = await this.cards.attendantDevice(m, actor);
      if (!espId) throw new AppError(ErrorCode.DeviceNotFound, 'No machine is assigned to you');
      // Checked first so that a duplicate says so, whatever the float; the unique index still decides races.
      // A card ID is unique across the system, so registering one held anywhere must fail, and that
      // it failed cannot be hidden. What must not leak is whose or where: every taken ID, at this
      // machine, at another of the manager's or at another tenant's, gets the same 409 (same code and
      // sentence, nothing about the holder), on the same path before any float moves. The ID is read
      // from the physical card the attendant holds; the card's data and balance stay out of reach
      // (404 everywhere else, and its sales at other tenants' machines are never charged to it).
      if (await this.cards.cardIdTaken(m, input.card_id)) throw new AppError(ErrorCode.CardAlreadyRegistered);
      const amount = amountToCents(input.card_balance);
      const movement = randomUUID();
      const floatAfter = amount > 0 ? await this.spendFloat(m, actor, amount) : null;
      const card = await this.cards.insert(m, {
        cardId: input.card_id,
        espId,
        firstName: input.card_holder_first_name,
        lastName: input.card_holder_last_name,
        phoneNumber: input.phoneNumber,
        cardType: input.card_type,
        balanceCents: amount,
        registeredBy: actor.userId,
      });
      if (!card) throw new AppError(ErrorCode.CardAlreadyRegistered);
      if (floatAfter !== null) await this.recordMove(m, actor, card, 'load', amount, floatAfter, amount, movement);
      await this.audit.record(m, {
        actorId: actor.userId,
        action: 'card.registered',
        entity: 'card',
        entityId: card.cardId,
        before: null,
        after: describe(card),
      });
      return { body: { id: card.id }, afterCommit: this.changed(card.cardId) };
    });
  }

  topUp(actor: Actor, cardId: string, input: TopUpCommand, call: IdempotentCall): Promise<{ card_balance: number }> {
    return this.idempotency.run(call, async (m) => {
      const card = await this.cards.findVisible(actor, cardId, m);
      if (!card) throw new AppError(ErrorCode.CardNotFound);
      const amount = amountToCents(input.amount);
      // Lock order float → card, the same in every movement, so that concurrent movements never deadlock.
      const floatAfter = await this.spendFloat(m, actor, amount);
      const cardAfter = await this.ledger.creditCard(m, card.id, amount);
      // Refused as a business rule; the transaction rolls the float debit back with it.
      if (cardAfter === null) throw new AppError(ErrorCode.BalanceLimitExceeded);
      await this.recordMove(m, actor, card, 'top-up', amount, floatAfter, cardAfter, randomUUID());
      return { body: { card_balance: centsToAmount(cardAfter) }, afterCommit: this.changed(card.cardId) };
    });
  }

  async listAtDevice(actor: Actor, espId: string): Promise<CardRow[]> {
    if (!(await this.devices.findVisible(actor, espId))) throw new AppError(ErrorCode.DeviceNotFound);
    const cards = await this.cards.listAtDevice(actor, espId);
    return cards.map(toCardRow);
  }

  /**
   * Blocks a card (docs/rest-api.md, "Selling offline"): machines drop it from their lists; a sale made
   * with it afterwards (a machine that sold offline) is still stored, flagged `blocked_card`.
   */
  block(actor: Actor, cardId: string, input: BlockCardRequest, call: IdempotentCall): Promise<CardRow> {
    return this.idempotency.run(call, async (m) => {
      const card = await this.controllable(m, actor, cardId);
      if (card.status === 'blocked') throw new AppError(ErrorCode.CardAlreadyBlocked);
      const after = await this.cards.setBlocked(m, card.id, input.reason);
      await this.recordChange(m, actor, 'card.blocked', card, after);
      return { body: toCardRow(after), afterCommit: this.changed(card.cardId) };
    });
  }

  unblock(actor: Actor, cardId: string, call: IdempotentCall): Promise<CardRow> {
    return this.idempotency.run(call, async (m) => {
      const card = await this.controllable(m, actor, cardId);
      // The replacement holds the balance now: two live cards of one holder would spend it twice.
      if (card.replacedBy !== null) throw new AppError(ErrorCode.CardReplaced);
      if (card.status !== 'blocked') throw new AppError(ErrorCode.CardNotBlocked);
      const after = await this.cards.setActive(m, card.id);
      await this.recordChange(m, actor, 'card.unblocked', card, after);
      return { body: toCardRow(after), afterCommit: this.changed(card.cardId) };
    });
  }

  /**
   * A lost or broken card: a new card for the same holder at the same machine takes the whole balance
   * (a `transfer-out` entry on the old card and a `transfer-in` on the new, one movement), and the old
   * card is blocked for good. The new card id must be free anywhere (409, as at registration).
   */
  replace(actor: Actor, cardId: string, input: ReplaceCardRequest, call: IdempotentCall): Promise<CardRow> {
    return this.idempotency.run(call, async (m) => {
      const old = await this.controllable(m, actor, cardId);
      if (old.replacedBy !== null) throw new AppError(ErrorCode.CardReplaced);
      if (await this.cards.cardIdTaken(m, input.newCardId)) throw new AppError(ErrorCode.CardAlreadyRegistered);
      const created = await this.cards.insert(m, {
        cardId: input.newCardId,
        espId: old.espId,
        firstName: old.firstName,
        lastName: old.lastName,
        phoneNumber: old.phoneNumber,
        cardType: old.cardType,
        balanceCents: old.balanceCents,
        registeredBy: actor.userId,
      });
      if (!created) throw new AppError(ErrorCode.CardAlreadyRegistered);
      const fresh =
        old.dailyLimitLitres === null
          ? created
          : await this.cards.setDailyLimit(m, created.id, Number(old.dailyLimitLitres));
      await this.ledger.setCardBalances(m, [{ id: old.id, balanceCents: 0 }]);
      if (old.balanceCents !== 0) {
        const movement = randomUUID();
        const leg = (card: StoredCard, kind: 'transfer-out' | 'transfer-in', amountCents: number, after: number) => ({
          accountType: 'card' as const,
          accountId: card.id,
          kind,
          amountCents,
          balanceAfterCents: after,
          reference: movement,
          actorId: actor.userId,
        });
        await this.ledger.insertEntries(m, [
          leg(old, 'transfer-out', -old.balanceCents, 0),
          leg(fresh, 'transfer-in', old.balanceCents, old.balanceCents),
        ]);
      }
      const blocked = await this.cards.setBlocked(m, old.id, `replaced by ${fresh.cardId}`, fresh.cardId);
      await this.recordChange(m, actor, 'card.replaced', old, blocked);
      await this.recordChange(m, actor, 'card.registered', null, fresh);
      return { body: toCardRow(fresh), afterCommit: this.changed(old.cardId, fresh.cardId) };
    });
  }

  /** Owner manager or admin (the route's access list): a manager only for cards of their machines. */
  async setLimits(actor: Actor, cardId: string, input: CardLimitsRequest): Promise<CardRow> {
    let changed: StoredCard | undefined;
    const body = await this.dataSource.transaction(async (m) => {
      const card = await this.controllable(m, actor, cardId);
      changed = await this.cards.setDailyLimit(m, card.id, input.dailyLimitLitres);
      await this.recordChange(m, actor, 'card.limits', card, changed);
      return toCardRow(changed);
    });
    this.changed(changed!.cardId)();
    return body;
  }

  /** The card locked for a change, or 404 outside the caller's reach (never saying whose it is). */
  private async controllable(m: EntityManager, actor: Actor, cardId: string): Promise<StoredCard> {
    const id = await this.cards.findControllable(m, actor, cardId);
    if (!id) throw new AppError(ErrorCode.CardNotFound);
    return this.cards.lock(m, id);
  }

  private recordChange(m: EntityManager, actor: Actor, action: string, before: StoredCard | null, after: StoredCard) {
    return this.audit.record(m, {
      actorId: actor.userId,
      action,
      entity: 'card',
      entityId: after.cardId,
      before: before ? describe(before) : null,
      after: describe(after),
    });
  }

  async history(actor: Actor, cardId: string): Promise<CardHistoryRow[]> {
    const card = await this.cards.findVisible(actor, cardId);
    if (!card) throw new AppError(ErrorCode.CardNotFound);
    const moves = await this.cards.history(card);
    return moves.map((h) => ({
      id: h.id,
      transaction_id: h.transactionId,
      amount: centsToAmount(h.amountCents),
      created_at: h.createdAt.toISOString(),
      card_type: card.cardType,
      kind: h.kind,
      flag: h.flag,
    }));
  }

  async summary(actor: Actor): Promise<CardSummary> {
    const counts = await this.cards.countPerDevice(actor);
    return Object.fromEntries(counts.map((c) => [c.espId, c.count]));
  }

  /** A load or top-up spends the attendant's float, refused when it would go below 0 (docs/rest-api.md, "Endpoints"). */
  private async spendFloat(m: EntityManager, actor: Actor, amount: number): Promise<number> {
    const after = await this.ledger.debitFloat(m, actor.userId, amount);
    if (after === null) throw new AppError(ErrorCode.InsufficientFloat);
    return after;
  }

  /** Both legs of a movement, float out and card in, under one transaction id. */
  private recordMove(
    m: EntityManager,
    actor: Actor,
    card: StoredCard,
    kind: 'load' | 'top-up',
    amount: number,
    floatAfter: number,
    cardAfter: number,
    movement: string,
  ): Promise<void> {
    return this.ledger.insertEntries(m, [
      {
        accountType: 'float',
        accountId: actor.userId,
        kind,
        amountCents: -amount,
        balanceAfterCents: floatAfter,
        reference: movement,
        actorId: actor.userId,
      },
      {
        accountType: 'card',
        accountId: card.id,
        kind,
        amountCents: amount,
        balanceAfterCents: cardAfter,
        reference: movement,
        actorId: actor.userId,
      },
    ]);
  }
}

function describe(card: StoredCard) {
  return {
    card_id: card.cardId,
    espId: card.espId,
    card_holder_first_name: card.firstName,
    card_holder_last_name: card.lastName,
    phoneNumber: card.phoneNumber,
    card_type: card.cardType,
    card_balance: centsToAmount(card.balanceCents),
    status: card.status,
    dailyLimitLitres: card.dailyLimitLitres === null ? null : Number(card.dailyLimitLitres),
    blockedReason: card.blockedReason,
    replacedBy: card.replacedBy,
  };
}

function toCardRow(c: StoredCard): CardRow {
  return {
    id: c.id,
    card_id: c.cardId,
    card_holder_first_name: c.firstName,
    card_holder_last_name: c.lastName,
    phoneNumber: c.phoneNumber,
    card_balance: centsToAmount(c.balanceCents),
    card_type: c.cardType,
    date_registered: c.dateRegistered.toISOString(),
    status: c.status,
    dailyLimitLitres: c.dailyLimitLitres === null ? null : Number(c.dailyLimitLitres),
  };
}
