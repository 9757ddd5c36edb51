import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { buildSalesTopic } from '@wv/contracts';
import { SaleIngestService } from '../../src/sale/sale-ingest.service.js';
import { provisionDevice } from '../factories/fleet.factory.js';
import { TestMachine, waitFor } from '../support/mqtt-machine.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../support/test-app.js';

/**
 * Found by the MQTT fuzzer: one machine's payload that the worker could not write (nested 100,000
 * levels deep, or an id with U+0000) failed the whole shared batch on every retry, so other
 * machines' sales, already PUBACKed, were never stored.
 */
describe('a poison payload in a shared sales batch', () => {
  let t: TestApp;
  let poisoner: { espId: string; deviceKey: string };
  let honest: { espId: string; deviceKey: string };
  const stored = async (eventId: string) =>
    Number((await t.dataSource.query('SELECT count(*)::int AS n FROM sales WHERE event_id = $1', [eventId]))[0].n);
  const deadLetters = async (espId: string) =>
    (await t.dataSource.query('SELECT reason FROM dead_letters WHERE esp_id = $1', [espId])) as { reason: string }[];

  beforeAll(async () => {
    t = await createTestApp();
    const admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    poisoner = await provisionDevice(t.http, admin);
    honest = await provisionDevice(t.http, admin);
  }, 60_000);
  afterAll(() => t.close());

  it('keeps deep and NUL payloads as dead letters and stores the other machine’s PUBACKed sale', async () => {
    const bad = await TestMachine.connect(t.mqttPort, poisoner.espId, poisoner.deviceKey);
    const good = await TestMachine.connect(t.mqttPort, honest.espId, honest.deviceKey);
    const sale = { kind: 'coin', price: 100, volume: 1, waterType: 'pure' };
    await Promise.all([
      bad.publishSales('['.repeat(100_000) + ']'.repeat(100_000)),
      bad.publishSales({ ...sale, eventId: 'nul-\u0000', kind: 'card', cardId: 'c\u0000' }),
      good.publishSales({ ...sale, eventId: 'honest-1' }),
    ]);
    await good.waitForAcks(['honest-1']);
    expect(await stored('honest-1')).toBe(1);
    const reasons = (
      await waitFor(
        () => deadLetters(poisoner.espId),
        (rows) => rows.length === 2,
      )
    ).map((r) => r.reason);
    expect(reasons.sort()).toEqual([
      'eventId: eventId must be valid Unicode text without the NUL character; cardId: cardId must be valid Unicode text without the NUL character',
      'payload is nested more than 32 levels deep',
    ]);
    await Promise.all([bad.end(), good.end()]);
  });

  it('writes a batch message by message when the database refuses one, and keeps that one', async () => {
    // A card so far in debt that one more sale overflows numeric(14,2): data only the database refuses.
    await t.dataSource.query(
      `INSERT INTO cards (card_id, esp_id, holder_first_name, holder_last_name, card_type, balance)
       VALUES ('DEEP-DEBT', $1, 'Deep', 'Debt', 'prepaid', -999999999999)`,
      [poisoner.espId],
    );
    const receivedAt = new Date().toISOString();
    const message = (espId: string, sale: object) => ({
      espId,
      topic: buildSalesTopic(espId),
      payload: JSON.stringify(sale),
      receivedAt,
      source: 'mqtt' as const,
    });
    const result = await t.running.app.get(SaleIngestService).ingestBatch(
      [
        message(poisoner.espId, {
          eventId: 'overflow-1',
          kind: 'card',
          cardId: 'DEEP-DEBT',
          price: 1e9,
          volume: 1,
          waterType: 'pure',
        }),
        message(honest.espId, { eventId: 'honest-2', kind: 'coin', price: 100, volume: 1, waterType: 'pure' }),
      ],
      'poison-test',
    );
    expect(result.inserted.map((s) => s.eventId)).toEqual(['honest-2']);
    expect(result.deadLettered).toBe(1);
    expect(await stored('honest-2')).toBe(1);
    expect(await stored('overflow-1')).toBe(0);
    expect(
      (await deadLetters(poisoner.espId)).some((r) => r.reason.startsWith('the database refused this payload')),
    ).toBe(true);
  });
});
