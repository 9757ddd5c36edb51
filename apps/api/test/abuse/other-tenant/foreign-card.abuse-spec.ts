import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { buildSalesTopic } from '@wv/contracts';
import { randomUUID } from 'node:crypto';
import { SaleIngestService } from '../../../src/sale/sale-ingest.service.js';
import { createAttendant, createManager, provisionDevice } from '../../factories/fleet.factory.js';
import { fundAttendant, ledgerViolations, registerCard, sellOnCard } from '../../factories/money.factory.js';
import { insertCard } from '../../factories/sales.factory.js';
import { TestMachine } from '../../support/mqtt-machine.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../../support/test-app.js';
import { saleMessage } from '../../factories/sales.factory.js';

type Manager = Awaited<ReturnType<typeof createManager>>;
type Attendant = Awaited<ReturnType<typeof createAttendant>>;
type Device = { espId: string; deviceKey: string };

/**
 * The attacker is tenant B (or anyone holding a machine outside tenant A): B's machines report card
 * sales carrying the IDs of tenant A's cards, hoping to spend A's customers' prepaid balances and book
 * the money as B's revenue. A card works only at the machines of the manager who owns the machine it
 * was registered at (docs/security.md); elsewhere its sales are kept, flagged `foreign_card`, and
 * never touch the card.
 */
describe('other tenant: spending a card registered at another tenant’s machine', () => {
  let t: TestApp;
  let admin: string;
  let managerA: Manager;
  let managerB: Manager;
  let attendantA: Attendant;
  let unowned: Device;
  const machines: TestMachine[] = [];

  const sale = (cardId: string, price: number) => saleMessage({ kind: 'card', cardId, price, volume: 5 });

  async function machine(device: Device): Promise<TestMachine> {
    const m = await TestMachine.connect(t.mqttPort, device.espId, device.deviceKey);
    machines.push(m);
    return m;
  }

  const cardState = async (cardId: string) => {
    const [row] = await t.dataSource.query(
      `SELECT c.balance::text AS balance,
              (SELECT count(*)::int FROM ledger_entries e WHERE e.account_type = 'card' AND e.account_id = c.id
                 AND e.kind = 'sale') AS "saleEntries"
       FROM cards c WHERE c.card_id = $1`,
      [cardId],
    );
    return row as { balance: string; saleEntries: number };
  };

  const flagsOf = async (eventIds: string[]) => {
    const rows: { event_id: string; flag: string | null }[] = await t.dataSource.query(
      `SELECT event_id, flag FROM sales WHERE event_id = ANY($1)`,
      [eventIds],
    );
    return eventIds.map((id) => rows.find((r) => r.event_id === id)?.flag);
  };

  const cardRevenue = async (token: string, espId: string) => {
    const res = await t.http.get('/user/machines/daily-summary', { token });
    expect(res.status).toBe(200);
    const row = res.body.dailyData.find((r: { machineId: string }) => r.machineId === espId);
    return row.cardBased.dailyPriceCollected as number;
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    managerA = await createManager(t.http, admin, 2);
    managerB = await createManager(t.http, admin, 1);
    attendantA = await createAttendant(t.http, managerA.token, managerA.devices[0]!.espId);
    await createAttendant(t.http, managerB.token, managerB.devices[0]!.espId);
    await fundAttendant(t.http, managerA.token, attendantA, 10_000);
    unowned = await provisionDevice(t.http, admin);
  });
  afterAll(async () => {
    await Promise.all(machines.map((m) => m.end()));
    expect(await ledgerViolations(t.dataSource)).toEqual([]);
    await t.close();
  });

  it('a card sale from another tenant’s machine is stored flagged foreign_card and never touches the card’s balance or ledger', async () => {
    const card = await registerCard(t.http, attendantA.token, { card_balance: 50 });
    const bMachine = await machine(managerB.devices[0]!);
    const aRevenueBefore = await cardRevenue(managerA.token, managerA.devices[0]!.espId);
    const bRevenueBefore = await cardRevenue(managerB.token, managerB.devices[0]!.espId);

    const theft = sale(card.card_id, 20);
    await bMachine.publishSales(theft);
    await bMachine.waitForAcks([theft.eventId]);

    expect(await flagsOf([theft.eventId])).toEqual(['foreign_card']);
    expect(await cardState(card.card_id)).toEqual({ balance: '50.00', saleEntries: 0 });
    const aCards = await t.http.get(`/cards/${managerA.devices[0]!.espId}`, { token: managerA.token });
    expect(aCards.body.find((c: { card_id: string }) => c.card_id === card.card_id).card_balance).toBe(50);
    // Counted as the selling machine's sale, never in the card owner's figures.
    expect(await cardRevenue(managerB.token, managerB.devices[0]!.espId)).toBe(bRevenueBefore + 20);
    expect(await cardRevenue(managerA.token, managerA.devices[0]!.espId)).toBe(aRevenueBefore);
  });

  it('the selling tenant sees the foreign sale flagged, without the other tenant’s card holder', async () => {
    const card = await registerCard(t.http, attendantA.token, { card_balance: 10 });
    const bMachine = await machine(managerB.devices[0]!);
    const theft = sale(card.card_id, 7);
    await bMachine.publishSales(theft);
    await bMachine.waitForAcks([theft.eventId]);

    const rows = await t.http.get(`/machines/${managerB.devices[0]!.espId}/card-transactions?limit=1000`, {
      token: managerB.token,
    });
    expect(rows.status).toBe(200);
    const row = rows.body.data.find((r: { cardId: string }) => r.cardId === card.card_id);
    expect(row).toMatchObject({
      cardId: card.card_id,
      price: 7,
      flag: 'foreign_card',
      cardType: null,
      cardholderFirstName: null,
      cardholderLastName: null,
    });
  });

  it('the card’s history shows the foreign sale flagged foreign_card beside the debits that really happened', async () => {
    const card = await registerCard(t.http, attendantA.token, { card_balance: 30 });
    const bMachine = await machine(managerB.devices[0]!);
    const theft = sale(card.card_id, 4);
    await bMachine.publishSales(theft);
    await bMachine.waitForAcks([theft.eventId]);
    await sellOnCard(t.http, t.dataSource, managerA.devices[1]!, card.card_id, 3);

    const history = await t.http.get(`/transactions/${card.card_id}`, { token: attendantA.token });
    expect(history.status).toBe(200);
    expect(
      history.body.map((r: { kind: string; amount: number; flag: string | null }) => [r.kind, r.amount, r.flag]),
    ).toEqual(
      expect.arrayContaining([
        ['load', 30, null],
        ['sale', -4, 'foreign_card'],
        ['sale', -3, null],
      ]),
    );
    expect(await cardState(card.card_id)).toEqual({ balance: '27.00', saleEntries: 1 });
  });

  it('a card works at every machine of the manager who owns the machine where it was registered', async () => {
    const card = await registerCard(t.http, attendantA.token, { card_balance: 40 });
    const atHome = await sellOnCard(t.http, t.dataSource, managerA.devices[0]!, card.card_id, 10);
    const atSister = await sellOnCard(t.http, t.dataSource, managerA.devices[1]!, card.card_id, 5);
    expect(await flagsOf([atHome, atSister])).toEqual([null, null]);
    expect(await cardState(card.card_id)).toEqual({ balance: '25.00', saleEntries: 2 });
  });

  it('a machine without an owner cannot spend a tenant’s card', async () => {
    const card = await registerCard(t.http, attendantA.token, { card_balance: 15 });
    const eventId = await sellOnCard(t.http, t.dataSource, unowned, card.card_id, 9);
    expect(await flagsOf([eventId])).toEqual(['foreign_card']);
    expect(await cardState(card.card_id)).toEqual({ balance: '15.00', saleEntries: 0 });
  });

  it('a card registered at a machine without an owner works only at that machine', async () => {
    const cardId = `UNOWNED-${randomUUID()}`;
    await insertCard(t.dataSource, {
      cardId,
      espId: unowned.espId,
      firstName: 'Neema',
      lastName: 'Shirima',
      cardType: 'walk-in',
    });
    const there = await sellOnCard(t.http, t.dataSource, unowned, cardId, 2);
    const atA = await sellOnCard(t.http, t.dataSource, managerA.devices[0]!, cardId, 3);
    const atB = await sellOnCard(t.http, t.dataSource, managerB.devices[0]!, cardId, 4);
    // Balance 0 at insert: the sale there overdraws (and is debited); the others never touch it.
    expect(await flagsOf([there, atA, atB])).toEqual(['overdrawn', 'foreign_card', 'foreign_card']);
    expect(await cardState(cardId)).toEqual({ balance: '-2.00', saleEntries: 1 });
  });

  it('one ingest batch holding many machines’ sales of one card debits only the sales at the card’s own machines', async () => {
    const card = await registerCard(t.http, attendantA.token, { card_balance: 100 });
    const receivedAt = new Date().toISOString();
    const message = (espId: string, payload: unknown) => ({
      espId,
      topic: buildSalesTopic(espId),
      payload: JSON.stringify(payload),
      receivedAt,
      source: 'mqtt' as const,
    });
    const [a0, a1] = managerA.devices.map((d) => d.espId) as [string, string];
    const b0 = managerB.devices[0]!.espId;
    const sales = {
      a0: sale(card.card_id, 11),
      b0: [sale(card.card_id, 13), sale(card.card_id, 17)],
      a1: sale(card.card_id, 19),
      unowned: sale(card.card_id, 23),
    };
    const result = await t.running.app
      .get(SaleIngestService)
      .ingestBatch(
        [message(b0, sales.b0), message(a0, sales.a0), message(unowned.espId, sales.unowned), message(a1, sales.a1)],
        `foreign-batch-${randomUUID()}`,
      );
    expect(result.inserted).toHaveLength(5);
    expect(
      await flagsOf([sales.a0.eventId, sales.a1.eventId, ...sales.b0.map((s) => s.eventId), sales.unowned.eventId]),
    ).toEqual([null, null, 'foreign_card', 'foreign_card', 'foreign_card']);
    expect(await cardState(card.card_id)).toEqual({ balance: '70.00', saleEntries: 2 });
  });

  it('concurrent sales of one card from both tenants’ machines debit exactly the sales at the card’s own machines', async () => {
    const card = await registerCard(t.http, attendantA.token, { card_balance: 500 });
    const [mA0, mA1, mB0] = await Promise.all([
      machine(managerA.devices[0]!),
      machine(managerA.devices[1]!),
      machine(managerB.devices[0]!),
    ]);
    const perMachine = 15;
    const batches = [mA0, mA1, mB0].map((m) => ({
      m,
      sales: Array.from({ length: perMachine }, () => sale(card.card_id, 3)),
    }));
    await Promise.all(batches.flatMap(({ m, sales }) => sales.map((s) => m.publishSales(s))));
    await Promise.all(
      batches.map(({ m, sales }) =>
        m.waitForAcks(
          sales.map((s) => s.eventId),
          30_000,
        ),
      ),
    );

    const flags = await flagsOf(batches[2]!.sales.map((s) => s.eventId));
    expect(flags.every((f) => f === 'foreign_card')).toBe(true);
    const home = await flagsOf(batches.slice(0, 2).flatMap((b) => b.sales.map((s) => s.eventId)));
    expect(home.every((f) => f === null)).toBe(true);
    expect(await cardState(card.card_id)).toEqual({ balance: `${500 - 2 * perMachine * 3}.00`, saleEntries: 30 });
  });
});
