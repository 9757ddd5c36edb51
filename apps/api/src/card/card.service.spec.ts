import { beforeEach, describe, expect, it } from '@jest/globals';
import { ErrorCode, type AddCardCommand } from '@wv/contracts';
import type { Actor } from '../common/actor.js';
import type { IdempotentCall } from '../ledger/idempotency.service.js';
import { DomainEvents } from '../events/domain-events.js';
import { LedgerService } from '../ledger/ledger.service.js';
import { createTestService, idempotencyInPlace, TX, type Fake } from '../../test/support/create-test-service.js';
import { CardRepository, type StoredCard } from './card.repository.js';
import { CardService } from './card.service.js';

// The rules of loading cards that the service decides. Whether the float covers an amount, the
// largest balance and the rollback of a refused movement are PostgreSQL's (apps/api/test/integration).

const attendant: Actor = { userId: 'attendant-1', role: 'attendant' };
const call = {} as IdempotentCall;

const newCard: AddCardCommand = {
  card_id: 'C-100',
  card_holder_first_name: 'Asha',
  card_holder_last_name: 'Mushi',
  phoneNumber: null,
  card_balance: 1_500.5,
  card_type: 'student',
};

const stored = (fields: Partial<StoredCard> = {}): StoredCard => ({
  id: 'card-row-1',
  cardId: 'C-100',
  espId: 'ESP1',
  firstName: 'Asha',
  lastName: 'Mushi',
  phoneNumber: null,
  cardType: 'student',
  balanceCents: 1_500_50,
  dateRegistered: new Date('2026-04-01T06:00:00Z'),
  status: 'active',
  dailyLimitLitres: null,
  blockedAt: null,
  blockedReason: null,
  replacedBy: null,
  ...fields,
});

let sut: CardService;
let cards: Fake<CardRepository>;
let ledger: Fake<LedgerService>;
let events: Fake<DomainEvents>;

beforeEach(() => {
  const built = createTestService(CardService, idempotencyInPlace);
  sut = built.sut;
  cards = built.fakes.get(CardRepository);
  ledger = built.fakes.get(LedgerService);
  events = built.fakes.get(DomainEvents);
  cards.attendantDevice.mockResolvedValue('ESP1');
  cards.cardIdTaken.mockResolvedValue(false);
  cards.insert.mockImplementation(async (_m, card) => stored({ balanceCents: card.balanceCents }));
  ledger.debitFloat.mockResolvedValue(8_499_50);
});

describe('registering a card', () => {
  it('loads the balance from the attendant’s float: float out and card in, under one movement', async () => {
    await expect(sut.register(attendant, newCard, call)).resolves.toEqual({ id: 'card-row-1' });

    expect(ledger.debitFloat).toHaveBeenCalledWith(TX, 'attendant-1', 1_500_50);
    expect(cards.insert).toHaveBeenCalledWith(TX, expect.objectContaining({ espId: 'ESP1', balanceCents: 1_500_50 }));
    const [[, entries]] = ledger.insertEntries.mock.calls;
    expect(entries).toEqual([
      expect.objectContaining({ accountType: 'float', accountId: 'attendant-1', kind: 'load', amountCents: -1_500_50 }),
      expect.objectContaining({ accountType: 'card', accountId: 'card-row-1', kind: 'load', amountCents: 1_500_50 }),
    ]);
    expect(entries[0].balanceAfterCents).toBe(8_499_50);
    expect(entries[1].balanceAfterCents).toBe(1_500_50);
    expect(entries[0].reference).toBe(entries[1].reference);
  });

  it('registers a card with a zero balance without touching the float', async () => {
    await sut.register(attendant, { ...newCard, card_balance: 0 }, call);

    expect(ledger.debitFloat).not.toHaveBeenCalled();
    expect(ledger.insertEntries).not.toHaveBeenCalled();
    expect(cards.insert).toHaveBeenCalledWith(TX, expect.objectContaining({ balanceCents: 0 }));
  });

  it('refuses a card ID taken anywhere before any float moves', async () => {
    cards.cardIdTaken.mockResolvedValue(true);

    await expect(sut.register(attendant, newCard, call)).rejects.toMatchObject({
      code: ErrorCode.CardAlreadyRegistered,
      status: 409,
    });
    expect(ledger.debitFloat).not.toHaveBeenCalled();
    expect(cards.insert).not.toHaveBeenCalled();
  });

  it('refuses a load the float does not cover, registering no card', async () => {
    ledger.debitFloat.mockResolvedValue(null);

    await expect(sut.register(attendant, newCard, call)).rejects.toMatchObject({
      code: ErrorCode.InsufficientFloat,
      status: 422,
    });
    expect(cards.insert).not.toHaveBeenCalled();
    expect(ledger.insertEntries).not.toHaveBeenCalled();
  });

  it('refuses an attendant without a machine', async () => {
    cards.attendantDevice.mockResolvedValue(null);

    await expect(sut.register(attendant, newCard, call)).rejects.toMatchObject({ code: ErrorCode.DeviceNotFound });
    expect(ledger.debitFloat).not.toHaveBeenCalled();
  });

  it('reports a card ID taken by a concurrent registration as already registered', async () => {
    cards.insert.mockResolvedValue(null);

    await expect(sut.register(attendant, newCard, call)).rejects.toMatchObject({
      code: ErrorCode.CardAlreadyRegistered,
    });
    expect(ledger.insertEntries).not.toHaveBeenCalled();
  });
});

describe('topping up a card', () => {
  beforeEach(() => {
    cards.findVisible.mockResolvedValue(stored());
    ledger.creditCard.mockResolvedValue(2_500_50);
  });

  it('moves the amount from the float to the card and answers the card’s new balance', async () => {
    await expect(sut.topUp(attendant, 'C-100', { amount: 1_000 }, call)).resolves.toEqual({ card_balance: 2_500.5 });

    expect(ledger.debitFloat).toHaveBeenCalledWith(TX, 'attendant-1', 1_000_00);
    expect(ledger.creditCard).toHaveBeenCalledWith(TX, 'card-row-1', 1_000_00);
    const [[, entries]] = ledger.insertEntries.mock.calls;
    expect(entries.map((e) => [e.accountType, e.kind, e.amountCents, e.balanceAfterCents])).toEqual([
      ['float', 'top-up', -1_000_00, 8_499_50],
      ['card', 'top-up', 1_000_00, 2_500_50],
    ]);
  });

  it('spends the float before crediting the card, the lock order of every movement', async () => {
    await sut.topUp(attendant, 'C-100', { amount: 1_000 }, call);

    const [debit] = ledger.debitFloat.mock.invocationCallOrder;
    const [credit] = ledger.creditCard.mock.invocationCallOrder;
    expect(debit).toBeLessThan(credit);
  });

  it('refuses a card the attendant cannot see before any float moves', async () => {
    cards.findVisible.mockResolvedValue(null);

    await expect(sut.topUp(attendant, 'C-999', { amount: 1_000 }, call)).rejects.toMatchObject({
      code: ErrorCode.CardNotFound,
      status: 404,
    });
    expect(ledger.debitFloat).not.toHaveBeenCalled();
  });

  it('refuses a top-up the float does not cover, leaving the card alone', async () => {
    ledger.debitFloat.mockResolvedValue(null);

    await expect(sut.topUp(attendant, 'C-100', { amount: 1_000 }, call)).rejects.toMatchObject({
      code: ErrorCode.InsufficientFloat,
    });
    expect(ledger.creditCard).not.toHaveBeenCalled();
  });

  it('refuses a top-up past the card’s largest balance, writing no entry', async () => {
    ledger.creditCard.mockResolvedValue(null);

    await expect(sut.topUp(attendant, 'C-100', { amount: 1_000 }, call)).rejects.toMatchObject({
      code: ErrorCode.BalanceLimitExceeded,
      status: 422,
    });
    expect(ledger.insertEntries).not.toHaveBeenCalled();
  });
});

describe('card controls', () => {
  beforeEach(() => {
    cards.findControllable.mockResolvedValue('card-row-1');
    cards.lock.mockResolvedValue(stored({ balanceCents: 40_00 }));
    cards.setBlocked.mockImplementation(async (_m, _id, reason, replacedBy) =>
      stored({ status: 'blocked', blockedAt: new Date(), blockedReason: reason, replacedBy: replacedBy ?? null }),
    );
    cards.setActive.mockResolvedValue(stored());
    cards.insert.mockImplementation(async (_m, card) =>
      stored({ id: 'card-row-2', cardId: card.cardId, balanceCents: card.balanceCents }),
    );
  });

  it('blocks an active card and tells the card lists after the commit', async () => {
    await expect(sut.block(attendant, 'C-100', { reason: 'lost' }, call)).resolves.toMatchObject({
      status: 'blocked',
    });
    expect(cards.setBlocked).toHaveBeenCalledWith(TX, 'card-row-1', 'lost');
    expect(events.emit).toHaveBeenCalledWith('cards.changed', { cardIds: ['C-100'] });
  });

  it('refuses to block a blocked card, to unblock an active one, or to unblock a replaced one', async () => {
    cards.lock.mockResolvedValue(stored({ status: 'blocked', blockedAt: new Date() }));
    await expect(sut.block(attendant, 'C-100', { reason: 'x' }, call)).rejects.toMatchObject({
      code: ErrorCode.CardAlreadyBlocked,
      status: 409,
    });
    cards.lock.mockResolvedValue(stored());
    await expect(sut.unblock(attendant, 'C-100', call)).rejects.toMatchObject({ code: ErrorCode.CardNotBlocked });
    cards.lock.mockResolvedValue(stored({ status: 'blocked', blockedAt: new Date(), replacedBy: 'C-200' }));
    await expect(sut.unblock(attendant, 'C-100', call)).rejects.toMatchObject({ code: ErrorCode.CardReplaced });
    expect(cards.setBlocked).not.toHaveBeenCalled();
    expect(cards.setActive).not.toHaveBeenCalled();
    expect(events.emit).not.toHaveBeenCalled();
  });

  it('answers 404 for a card out of the caller’s reach, before locking anything', async () => {
    cards.findControllable.mockResolvedValue(null);
    await expect(sut.block(attendant, 'C-999', { reason: 'x' }, call)).rejects.toMatchObject({
      code: ErrorCode.CardNotFound,
      status: 404,
    });
    expect(cards.lock).not.toHaveBeenCalled();
  });

  it('replaces a card: the balance moves as one transfer, the old card is blocked and named replaced', async () => {
    await expect(sut.replace(attendant, 'C-100', { newCardId: 'C-200' }, call)).resolves.toMatchObject({
      card_id: 'C-200',
      card_balance: 40,
    });
    expect(cards.insert).toHaveBeenCalledWith(
      TX,
      expect.objectContaining({ cardId: 'C-200', espId: 'ESP1', firstName: 'Asha', balanceCents: 40_00 }),
    );
    expect(ledger.setCardBalances).toHaveBeenCalledWith(TX, [{ id: 'card-row-1', balanceCents: 0 }]);
    const [[, entries]] = ledger.insertEntries.mock.calls;
    expect(entries.map((e) => [e.accountId, e.kind, e.amountCents, e.balanceAfterCents])).toEqual([
      ['card-row-1', 'transfer-out', -40_00, 0],
      ['card-row-2', 'transfer-in', 40_00, 40_00],
    ]);
    expect(entries[0].reference).toBe(entries[1].reference);
    expect(cards.setBlocked).toHaveBeenCalledWith(TX, 'card-row-1', 'replaced by C-200', 'C-200');
    expect(events.emit).toHaveBeenCalledWith('cards.changed', { cardIds: ['C-100', 'C-200'] });
  });

  it('refuses a replacement id already taken, or a card already replaced, moving nothing', async () => {
    cards.cardIdTaken.mockResolvedValue(true);
    await expect(sut.replace(attendant, 'C-100', { newCardId: 'C-200' }, call)).rejects.toMatchObject({
      code: ErrorCode.CardAlreadyRegistered,
    });
    cards.cardIdTaken.mockResolvedValue(false);
    cards.lock.mockResolvedValue(stored({ status: 'blocked', blockedAt: new Date(), replacedBy: 'C-150' }));
    await expect(sut.replace(attendant, 'C-100', { newCardId: 'C-200' }, call)).rejects.toMatchObject({
      code: ErrorCode.CardReplaced,
    });
    expect(cards.insert).not.toHaveBeenCalled();
    expect(ledger.insertEntries).not.toHaveBeenCalled();
  });
});
