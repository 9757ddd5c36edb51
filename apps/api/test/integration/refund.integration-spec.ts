import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createAttendant, createManager } from '../factories/fleet.factory.js';
import { fundAttendant, ledgerViolations, registerCard } from '../factories/money.factory.js';
import { saleMessage } from '../factories/sales.factory.js';
import { SaleIngestQueue } from '../../src/sale/sale-ingest.queue.js';
import { TestMachine, waitFor } from '../support/mqtt-machine.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../support/test-app.js';

type Manager = Awaited<ReturnType<typeof createManager>>;
type Attendant = Awaited<ReturnType<typeof createAttendant>>;

/**
 * docs/device-protocol.md, "Sales": a card sale whose flow meter measured under 90 % of its volume
 * gives the undelivered share of its price back to the card, once, as a `refund` history entry,
 * however often and by whichever path the sale is delivered.
 */
describe('short-dispense refunds', () => {
  let t: TestApp;
  let admin: string;
  let manager: Manager;
  let other: Manager;
  let attendant: Attendant;
  let machine: TestMachine;
  let foreignMachine: TestMachine;

  const device = () => manager.devices[0]!;
  const balanceOf = async (cardId: string) =>
    (await t.dataSource.query(`SELECT balance::float8 AS b FROM cards WHERE card_id = $1`, [cardId]))[0].b as number;
  const refundsOf = (cardRowId: string) =>
    t.dataSource.query(
      `SELECT amount::float8 AS amount, reference FROM ledger_entries
       WHERE account_type = 'card' AND account_id = $1 AND kind = 'refund'`,
      [cardRowId],
    );
  const cardSale = (cardId: string, overrides: Record<string, unknown> = {}) =>
    saleMessage({ kind: 'card', cardId, price: 200, volume: 10, ...overrides });
  const restDeliver = (sale: unknown) =>
    t.http.post(`/machines/${device().espId}/sales`, sale, { headers: { 'x-device-key': device().deviceKey } });
  const newCard = async (balance = 1000) => {
    await fundAttendant(t.http, manager.token, attendant, balance);
    return registerCard(t.http, attendant.token, { card_balance: balance });
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    manager = await createManager(t.http, admin, 1);
    other = await createManager(t.http, admin, 1);
    attendant = await createAttendant(t.http, manager.token, device().espId);
    machine = await TestMachine.connect(t.mqttPort, device().espId, device().deviceKey);
    foreignMachine = await TestMachine.connect(t.mqttPort, other.devices[0]!.espId, other.devices[0]!.deviceKey);
  });
  afterAll(async () => {
    await machine.end();
    await foreignMachine.end();
    expect(await ledgerViolations(t.dataSource)).toEqual([]);
    await t.close();
  });

  it('gives back the undelivered share of the price, shown as a refund naming the sale', async () => {
    const card = await newCard();
    const sale = cardSale(card.card_id, { dispensed: 6 });
    await machine.publishSales(sale);
    await machine.waitForAcks([sale.eventId]);
    // 200 for 10 L, 6 L delivered: 4/10 of 200 comes back.
    expect(await balanceOf(card.card_id)).toBe(880);
    const history = await t.http.get(`/transactions/${card.card_id}`, { token: attendant.token });
    expect(history.status).toBe(200);
    const rows = history.body as { kind: string; amount: number; transaction_id: string; flag: string | null }[];
    expect(rows.filter((r) => r.kind !== 'load').map((r) => [r.kind, r.amount, r.transaction_id])).toEqual(
      expect.arrayContaining([
        ['sale', -200, sale.eventId],
        ['refund', 80, sale.eventId],
      ]),
    );
    const page = await t.http.get(`/machines/${device().espId}/card-transactions?limit=100`, { token: manager.token });
    expect(page.body.data.find((r: { cardId: string }) => r.cardId === card.card_id)).toMatchObject({
      volume: 10,
      dispensed: 6,
      flag: null,
    });
  });

  it('refunds once when the same sale is delivered again and again, over MQTT and REST at once', async () => {
    const card = await newCard();
    const sale = cardSale(card.card_id, { dispensed: 2.5 });
    await machine.publishSales(sale);
    await machine.waitForAcks([sale.eventId]);
    const after = await balanceOf(card.card_id);
    expect(after).toBe(1000 - 200 + 150);

    const [rest] = await Promise.all([
      Promise.all(Array.from({ length: 5 }, () => restDeliver([sale]))),
      Promise.all(Array.from({ length: 5 }, () => machine.publishSales([sale]))),
    ]);
    expect(rest.map((r) => [r.status, r.body])).toEqual(Array(5).fill([202, { accepted: 1, rejected: [] }]));
    // A later sale, committed after the duplicates were queued: once it is stored, they were too.
    const marker = saleMessage();
    await machine.publishSales(marker);
    await machine.waitForAcks([marker.eventId]);
    await waitFor(
      () => t.running.app.get(SaleIngestQueue).depth(),
      (n) => n === 0,
      30_000,
    );
    expect(await refundsOf(card.id)).toEqual([{ amount: 150, reference: expect.any(String) }]);
    expect(await balanceOf(card.card_id)).toBe(after);
  });

  it('refunds nothing at 90 % of the volume or more, nor for a sale without dispensed', async () => {
    const card = await newCard();
    const sales = [
      cardSale(card.card_id, { dispensed: 9 }),
      cardSale(card.card_id, { dispensed: 12 }),
      cardSale(card.card_id),
    ];
    await machine.publishSales(sales);
    await machine.waitForAcks(sales.map((s) => s.eventId));
    expect(await refundsOf(card.id)).toEqual([]);
    expect(await balanceOf(card.card_id)).toBe(400);
  });

  it('stores dispensed on a coin sale and moves no money', async () => {
    const sale = saleMessage({ price: 100, volume: 20, dispensed: 3 });
    await machine.publishSales(sale);
    await machine.waitForAcks([sale.eventId]);
    const rows = await t.dataSource.query(
      `SELECT dispensed::float8 AS dispensed FROM sales WHERE esp_id = $1 AND event_id = $2`,
      [device().espId, sale.eventId],
    );
    expect(rows).toEqual([{ dispensed: 3 }]);
    const page = await t.http.get(`/machines/${device().espId}/coin-transactions?limit=100`, { token: manager.token });
    expect(page.body.data.find((r: { volume: number }) => r.volume === 20)).toMatchObject({ dispensed: 3 });
  });

  it('refunds nothing for a sale not charged to the card: another tenant’s machine naming it', async () => {
    const card = await newCard();
    const sale = cardSale(card.card_id, { dispensed: 0 });
    await foreignMachine.publishSales(sale);
    await foreignMachine.waitForAcks([sale.eventId]);
    expect(await balanceOf(card.card_id)).toBe(1000);
    expect(await refundsOf(card.id)).toEqual([]);
  });

  it('has the database refuse a second refund of the same sale, whatever the application does', async () => {
    const card = await newCard();
    const sale = cardSale(card.card_id, { dispensed: 5 });
    await machine.publishSales(sale);
    await machine.waitForAcks([sale.eventId]);
    const [refund] = await refundsOf(card.id);
    await expect(
      t.dataSource.query(
        `INSERT INTO ledger_entries (account_type, account_id, kind, amount, balance_after, reference)
         VALUES ('card', $1, 'refund', 100, 1000, $2)`,
        [card.id, refund.reference],
      ),
    ).rejects.toThrow(/ledger_refund_uq/);
  });
});
