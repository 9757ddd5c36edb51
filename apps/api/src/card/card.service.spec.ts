import { beforeEach, describe, expect, it } from '@jest/globals';
import { ErrorCode, type AddCardCommand } from '@wv/contracts';
import type { Actor } from '../common/actor.js';
import type { IdempotentCall } from '../ledger/idempotency.service.js';
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
  ...fields,
});

let sut: CardService;
let cards: Fake<CardRepository>;
let ledger: Fake<LedgerService>;

beforeEach(() => {
  const built = createTestService(CardService, idempotencyInPlace);
  sut = built.sut;
  cards = built.fakes.get(CardRepository);
  ledger = built.fakes.get(LedgerService);
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
