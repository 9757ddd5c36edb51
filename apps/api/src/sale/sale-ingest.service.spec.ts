import { beforeEach, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { APP_CONFIG } from '../config/app-config.js';
import { LedgerService, type LockedCard } from '../ledger/ledger.service.js';
import { REDIS } from '../redis/redis.provider.js';
import { createTestService, provide, TX, type Fake } from '../../test/support/create-test-service.js';
import { SaleIngestService } from './sale-ingest.service.js';
import type { RawSalesMessage } from './sale-ingest.types.js';
import { SaleRepository, type InsertedSale, type SaleRow } from './sale.repository.js';

// How a card sale is flagged and charged, decided in TypeScript once PostgreSQL has said which cards
// exist and where each one works (ledger lockCards) and which sales are new (the unique key in
// insertBatch). Those answers are the database's and are tested against it in apps/api/test/integration;
// here the fakes give them.

const receivedAt = '2026-04-01T09:00:00.000Z';

function message(espId: string, sales: object[]): RawSalesMessage {
  return { espId, topic: `machines/${espId}/sales`, payload: JSON.stringify(sales), receivedAt, source: 'mqtt' };
}

const cardSale = (eventId: string, cardId: string, price: number) => ({
  eventId,
  kind: 'card',
  cardId,
  price,
  volume: 1,
  waterType: 'pure',
});

const card = (
  cardId: string,
  balanceCents: number,
  worksAt: string[],
  fields: Partial<LockedCard> = {},
): LockedCard => ({
  id: `row-${cardId}`,
  cardId,
  balanceCents,
  worksAt: new Set(worksAt),
  status: 'active',
  blockedAt: null,
  dailyLimitMl: null,
  ...fields,
});

/** What insertBatch answers for the rows it stored: numeric columns come back as text. */
const storedAs = (row: SaleRow, id: string): InsertedSale => ({
  id,
  espId: row.espId,
  eventId: row.eventId,
  kind: row.kind,
  price: row.price.toFixed(2),
  volume: row.volume.toFixed(3),
  waterType: row.waterType,
  cardId: row.cardId,
  soldAt: row.soldAt,
  localDate: '2026-04-01',
  seq: row.seq,
  offline: row.offline,
  dispensed: row.dispensed === null ? null : row.dispensed.toFixed(3),
});

let sut: SaleIngestService;
let sales: Fake<SaleRepository>;
let ledger: Fake<LedgerService>;
/** Event ids the database already holds: insertBatch leaves them out of its answer. */
let alreadyStored: Set<string>;

beforeEach(() => {
  const built = createTestService(
    SaleIngestService,
    provide(DataSource, { transaction: async (work: (m: typeof TX) => Promise<unknown>) => work(TX) }),
    provide(APP_CONFIG, { timezone: 'Africa/Dar_es_Salaam' }),
    provide(REDIS, { pipeline: () => ({ incrby: () => undefined, exec: async () => [] }) }),
  );
  sut = built.sut;
  sales = built.fakes.get(SaleRepository);
  ledger = built.fakes.get(LedgerService);
  alreadyStored = new Set();
  sales.insertBatch.mockImplementation(async (_m, rows) =>
    rows.filter((r) => !alreadyStored.has(r.eventId)).map((r) => storedAs(r, `sale-${r.eventId}`)),
  );
  ledger.lockCards.mockResolvedValue([]);
});

/** The rows handed to insertBatch, by event id. */
const insertedRows = () => new Map(sales.insertBatch.mock.calls[0][1].map((r) => [r.eventId, r]));
const ledgerEntries = () => ledger.insertEntries.mock.calls[0][1];
/** The flags set, each with the sale's time that finds its partition (docs/partitions.md) checked and left out. */
const overdrawnFlags = () =>
  sales.setFlags.mock.calls[0][1].map(({ soldAt, ...flag }) => {
    expect(soldAt).toBeInstanceOf(Date);
    return flag;
  });

describe('a card sale', () => {
  it('is charged to a card that works at the selling machine: the balance drops by the price', async () => {
    ledger.lockCards.mockResolvedValue([card('C-1', 1_000_00, ['ESP1'])]);

    await sut.ingestBatch([message('ESP1', [cardSale('e1', 'C-1', 150)])], 'job-1');

    expect(ledger.lockCards).toHaveBeenCalledWith(TX, ['C-1'], ['ESP1']);
    expect(insertedRows().get('e1')?.flag).toBeUndefined();
    expect(ledger.setCardBalances).toHaveBeenCalledWith(TX, [
      expect.objectContaining({ id: 'row-C-1', balanceCents: 850_00 }),
    ]);
    expect(ledgerEntries()).toEqual([
      {
        accountType: 'card',
        accountId: 'row-C-1',
        kind: 'sale',
        amountCents: -150_00,
        balanceAfterCents: 850_00,
        reference: 'sale-e1',
        actorId: null,
      },
    ]);
    expect(overdrawnFlags()).toEqual([]);
  });

  it('is stored and flagged unknown_card when no card has its ID, and charges nothing', async () => {
    const result = await sut.ingestBatch([message('ESP1', [cardSale('e1', 'C-404', 150)])], 'job-1');

    expect(result.inserted).toHaveLength(1);
    expect(insertedRows().get('e1')?.flag).toBe('unknown_card');
    expect(ledger.setCardBalances).toHaveBeenCalledWith(TX, []);
    expect(ledgerEntries()).toEqual([]);
  });

  it('is stored and flagged foreign_card when the card works only at another owner’s machines, and charges nothing', async () => {
    // The card exists, but not for ESP2: another tenant's machine must not spend it by naming its ID.
    ledger.lockCards.mockResolvedValue([card('C-1', 1_000_00, ['ESP1'])]);

    await sut.ingestBatch([message('ESP2', [cardSale('e1', 'C-1', 150)])], 'job-1');

    expect(insertedRows().get('e1')?.flag).toBe('foreign_card');
    expect(ledger.setCardBalances).toHaveBeenCalledWith(TX, []);
    expect(ledgerEntries()).toEqual([]);
  });

  it('is never refused for a short balance: it is charged all the same, into the negative, and flagged overdrawn', async () => {
    ledger.lockCards.mockResolvedValue([card('C-1', 100_00, ['ESP1'])]);

    await sut.ingestBatch([message('ESP1', [cardSale('e1', 'C-1', 150)])], 'job-1');

    expect(insertedRows().get('e1')?.flag).toBeUndefined();
    expect(overdrawnFlags()).toEqual([{ saleId: 'sale-e1', flag: 'overdrawn' }]);
    expect(ledger.setCardBalances).toHaveBeenCalledWith(TX, [expect.objectContaining({ balanceCents: -50_00 })]);
    expect(ledgerEntries()).toEqual([expect.objectContaining({ amountCents: -150_00, balanceAfterCents: -50_00 })]);
  });

  it('takes a balance that exactly covers it to zero without flagging', async () => {
    ledger.lockCards.mockResolvedValue([card('C-1', 150_00, ['ESP1'])]);

    await sut.ingestBatch([message('ESP1', [cardSale('e1', 'C-1', 150)])], 'job-1');

    expect(overdrawnFlags()).toEqual([]);
    expect(ledgerEntries()).toEqual([expect.objectContaining({ balanceAfterCents: 0 })]);
  });
});

describe('a batch', () => {
  it('charges sales on one card one after another, flagging the first that the balance left cannot cover', async () => {
    ledger.lockCards.mockResolvedValue([card('C-1', 300_00, ['ESP1', 'ESP3'])]);

    await sut.ingestBatch(
      [
        message('ESP1', [cardSale('e1', 'C-1', 200), cardSale('e2', 'C-1', 50)]),
        message('ESP3', [cardSale('e3', 'C-1', 100)]),
      ],
      'job-1',
    );

    expect(ledgerEntries().map((e) => [e.reference, e.balanceAfterCents])).toEqual([
      ['sale-e1', 100_00],
      ['sale-e2', 50_00],
      ['sale-e3', -50_00],
    ]);
    expect(overdrawnFlags()).toEqual([{ saleId: 'sale-e3', flag: 'overdrawn' }]);
    // One balance update per card, with the balance after the last sale.
    expect(ledger.setCardBalances).toHaveBeenCalledWith(TX, [expect.objectContaining({ balanceCents: -50_00 })]);
  });

  it('charges only the sales the database stored as new, so that a redelivered sale is never charged twice', async () => {
    ledger.lockCards.mockResolvedValue([card('C-1', 1_000_00, ['ESP1'])]);
    alreadyStored.add('e1');

    const result = await sut.ingestBatch(
      [message('ESP1', [cardSale('e1', 'C-1', 150), cardSale('e2', 'C-1', 100)])],
      'job-1',
    );

    expect(result).toMatchObject({ duplicates: 1 });
    expect(ledgerEntries().map((e) => e.reference)).toEqual(['sale-e2']);
    expect(ledger.setCardBalances).toHaveBeenCalledWith(TX, [expect.objectContaining({ balanceCents: 900_00 })]);
  });

  it('writes a sale sent twice in the same batch once', async () => {
    ledger.lockCards.mockResolvedValue([card('C-1', 1_000_00, ['ESP1'])]);

    await sut.ingestBatch(
      [message('ESP1', [cardSale('e1', 'C-1', 150)]), message('ESP1', [cardSale('e1', 'C-1', 150)])],
      'job-1',
    );

    expect(sales.insertBatch.mock.calls[0][1]).toHaveLength(1);
    expect(ledgerEntries()).toHaveLength(1);
  });

  it('asks about no card for coin sales and charges nothing', async () => {
    await sut.ingestBatch(
      [message('ESP1', [{ eventId: 'e1', kind: 'coin', price: 100, volume: 2, waterType: 'cold' }])],
      'job-1',
    );

    expect(ledger.lockCards).toHaveBeenCalledWith(TX, [], []);
    expect(insertedRows().get('e1')).toMatchObject({ kind: 'coin', cardId: null });
    expect(ledgerEntries()).toEqual([]);
  });
});

describe('a short-dispensed card sale', () => {
  const short = (eventId: string, price: number, volume: number, dispensed: number) => ({
    ...cardSale(eventId, 'C-1', price),
    volume,
    dispensed,
  });

  it('refunds the undelivered share of its price once, as a refund entry after the sale entry', async () => {
    ledger.lockCards.mockResolvedValue([card('C-1', 1_000_00, ['ESP1'])]);

    await sut.ingestBatch([message('ESP1', [short('e1', 200, 10, 6)])], 'job-1');

    expect(ledgerEntries().map((e) => [e.kind, e.amountCents, e.balanceAfterCents, e.reference])).toEqual([
      ['sale', -200_00, 800_00, 'sale-e1'],
      ['refund', 80_00, 880_00, 'sale-e1'],
    ]);
    expect(ledger.setCardBalances).toHaveBeenCalledWith(TX, [expect.objectContaining({ balanceCents: 880_00 })]);
  });

  it('refunds nothing at 90 % or more of the volume, nor for a redelivered sale', async () => {
    ledger.lockCards.mockResolvedValue([card('C-1', 1_000_00, ['ESP1'])]);
    alreadyStored.add('e2');

    await sut.ingestBatch([message('ESP1', [short('e1', 200, 10, 9), short('e2', 200, 10, 1)])], 'job-1');

    expect(ledgerEntries().map((e) => e.kind)).toEqual(['sale']);
  });

  it('rounds the refund down to whole cents', async () => {
    ledger.lockCards.mockResolvedValue([card('C-1', 1_000_00, ['ESP1'])]);

    await sut.ingestBatch([message('ESP1', [short('e1', 0.1, 3, 1)])], 'job-1');

    // 10 cents × 2/3 = 6.67 cents → 6
    expect(ledgerEntries().find((e) => e.kind === 'refund')?.amountCents).toBe(6);
  });
});

describe('a card sale on a controlled card', () => {
  it('is flagged blocked_card when the card was blocked before the sale’s time, and still charged', async () => {
    const blockedAt = new Date('2026-04-01T08:00:00Z');
    ledger.lockCards.mockResolvedValue([card('C-1', 1_000_00, ['ESP1'], { status: 'blocked', blockedAt })]);

    await sut.ingestBatch(
      [
        message('ESP1', [
          { ...cardSale('before', 'C-1', 10), time: '2026-04-01T07:59:00Z' },
          { ...cardSale('after', 'C-1', 10), time: '2026-04-01T08:01:00Z' },
        ]),
      ],
      'job-1',
    );

    expect(overdrawnFlags()).toEqual([{ saleId: 'sale-after', flag: 'blocked_card' }]);
    expect(ledgerEntries()).toHaveLength(2);
  });

  it('is flagged over_limit once the day’s litres pass the card’s daily limit', async () => {
    ledger.lockCards.mockResolvedValue([card('C-1', 1_000_00, ['ESP1'], { dailyLimitMl: 20_000 })]);
    sales.litresCharged.mockResolvedValue(new Map([['C-1|2026-04-01', 15_000]]));

    await sut.ingestBatch(
      [
        message('ESP1', [
          { ...cardSale('e1', 'C-1', 10), volume: 5, time: '2026-04-01T08:00:00Z' },
          { ...cardSale('e2', 'C-1', 10), volume: 0.5, time: '2026-04-01T08:01:00Z' },
        ]),
      ],
      'job-1',
    );

    expect(sales.litresCharged).toHaveBeenCalledWith(TX, ['C-1'], ['2026-04-01'], ['sale-e1', 'sale-e2']);
    expect(overdrawnFlags()).toEqual([{ saleId: 'sale-e2', flag: 'over_limit' }]);
  });
});
