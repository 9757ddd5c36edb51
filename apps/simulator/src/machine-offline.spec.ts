import {
  buildCardsAckTopic,
  buildCardsDeltaTopic,
  buildCardsTopic,
  buildSalesAckTopic,
  buildSalesTopic,
  buildStatusTopic,
  type CardListEntry,
  type Sale,
  type StatusPayload,
} from '@wv/contracts';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { Machine } from './machine.js';
import type { MachineOptions } from './machine.types.js';
import { createRandom } from './prng.js';
import { TestServer } from './testing/test-server.js';

const ESP = 'ESP-OFFLINE-1';
let server: TestServer;
let machines: Machine[];

function machine(options: Partial<MachineOptions> = {}): Machine {
  const m = new Machine({
    url: server.url,
    identity: { espId: ESP, deviceKey: 'key-1' },
    random: createRandom(7),
    reconnectDelayMs: 20,
    resendAfterMs: 0,
    sellFromCardList: true,
    ...options,
  });
  machines.push(m);
  return m;
}

const card = (cardId: string, over: Partial<CardListEntry> = {}): CardListEntry => ({
  cardId,
  status: 'active',
  balance: 1_000,
  dailyLimitLitres: null,
  ...over,
});
const acks = () => server.payloads<{ version: number }>(buildCardsAckTopic(ESP)).map((a) => a.version);
const sales = () => server.sales(buildSalesTopic(ESP));
/** The topics the machine published, in order, collapsing runs of the same topic. */
const publishedOrder = () =>
  server.messages
    .filter((m) => m.clientId === ESP)
    .map((m) => m.topic.slice(`wv/v1/machines/${ESP}/`.length))
    .filter((t, i, all) => t !== all[i - 1]);

beforeEach(async () => {
  server = await TestServer.start({ autoAck: false });
  machines = [];
});

afterEach(async () => {
  await Promise.all(machines.map((m) => m.stop()));
  await server.close();
});

describe('a machine and its card list', () => {
  it('acknowledges the version it holds at connect, applies the retained list and a delta on it, and ignores a delta on another base', async () => {
    await server.publish(buildCardsTopic(ESP), { version: 4, cards: [card('A'), card('B')] }, true);
    const m = machine();
    m.start();
    await m.waitOnline();
    await server.waitFor('the list acknowledged', () => acks().length === 2);
    // The version held when it publishes: 0, or 4 when the retained list came before that publish.
    expect([
      [0, 4],
      [4, 4],
    ]).toContainEqual(acks());

    await server.publish(buildCardsDeltaTopic(ESP), {
      version: 5,
      baseVersion: 4,
      upserts: [card('C')],
      removals: ['A'],
    });
    await server.waitFor('the delta acknowledged', () => acks().includes(5));
    expect(m.heldCards.map((c) => c.cardId)).toEqual(['B', 'C']);

    // A delta on a version the machine does not hold is dropped unacknowledged; the full list that follows is taken.
    await server.publish(buildCardsDeltaTopic(ESP), { version: 7, baseVersion: 6, upserts: [card('X')], removals: [] });
    await server.publish(buildCardsTopic(ESP), { version: 7, cards: [card('D')] }, true);
    await server.waitFor('the full list acknowledged', () => acks().includes(7));
    expect(acks().slice(2)).toEqual([5, 7]);
    expect(m.heldCards.map((c) => c.cardId)).toEqual(['D']);
  });

  it('keeps its list across a reconnect and says the version it holds right after subscribing', async () => {
    await server.publish(buildCardsTopic(ESP), { version: 2, cards: [card('A')] }, true);
    const m = machine();
    m.start();
    await m.waitOnline();
    await server.waitFor('version 2 acknowledged', () => acks().length === 2);
    m.cutOff();
    m.reconnect();
    await server.waitFor('the second connection', () => acks().length === 3);
    // The retained copy of version 2 comes again and changes nothing.
    expect(acks().slice(1)).toEqual([2, 2]);
    expect(m.cardListVersion).toBe(2);
  });
});

describe('a machine selling on its card list', () => {
  const listed = [
    card('OK', { balance: 100 }),
    card('LOST', { status: 'blocked' }),
    card('LIMITED', { dailyLimitLitres: 10 }),
    card('POOR', { balance: 5 }),
  ];
  const cardSale = (cardId: string, volume: number, price: number) =>
    ({ kind: 'card', cardId, volume, price, waterType: 'fresh' }) as const;

  it('refuses blocked, unknown, over-limit and short-of-balance cards itself, offline too, and makes no sale for them', async () => {
    await server.publish(buildCardsTopic(ESP), { version: 1, cards: listed }, true);
    const m = machine();
    const refused: string[] = [];
    m.on('cardRefused', (r) => refused.push(`${r.cardId}:${r.reason}`));
    m.start();
    await m.waitOnline();
    await server.waitFor('the list', () => m.cardListVersion === 1);

    expect(m.trySell(cardSale('LOST', 1, 1)).refused).toEqual({ cardId: 'LOST', reason: 'blocked' });
    expect(m.trySell(cardSale('NOBODY', 1, 1)).refused).toEqual({ cardId: 'NOBODY', reason: 'unknown' });
    expect(m.trySell(cardSale('LIMITED', 8, 8)).sale?.seq).toBe(1);
    expect(m.trySell(cardSale('LIMITED', 3, 3)).refused).toEqual({ cardId: 'LIMITED', reason: 'over_limit' });
    expect(m.trySell(cardSale('POOR', 1, 5.01)).refused).toEqual({ cardId: 'POOR', reason: 'balance' });

    m.cutOff();
    expect(m.trySell(cardSale('OK', 20, 60)).sale).toMatchObject({ seq: 2, offline: true });
    // The local balance went from 100 to 40 with the sale above, without any word from the server.
    expect(m.trySell(cardSale('OK', 20, 60)).refused).toEqual({ cardId: 'OK', reason: 'balance' });
    expect(m.trySell(cardSale('LOST', 1, 1)).refused?.reason).toBe('blocked');
    expect(m.heldCards.find((c) => c.cardId === 'OK')!.balance).toBe(40);

    expect(refused).toEqual([
      'LOST:blocked',
      'NOBODY:unknown',
      'LIMITED:over_limit',
      'POOR:balance',
      'OK:balance',
      'LOST:blocked',
    ]);
    expect(m.stats()).toMatchObject({ generated: 2, cardsRefused: 6, lastSeq: 2, outbox: 2 });
  });

  it('draws card ids from the list it holds, and sell() falls back to coins when the card is refused', async () => {
    await server.publish(buildCardsTopic(ESP), { version: 1, cards: listed }, true);
    const m = machine();
    m.start();
    await m.waitOnline();
    await server.waitFor('the list', () => m.cardListVersion === 1);
    const made = Array.from({ length: 300 }, () => m.sell());
    const cardIds = new Set(made.filter((s) => s.kind === 'card').map((s) => s.cardId));
    expect(cardIds.size).toBeGreaterThan(0);
    for (const id of cardIds) expect(['OK', 'LIMITED', 'POOR']).toContain(id);
    expect(m.stats().cardsRefused).toBeGreaterThan(0);
    expect(made.map((s) => s.seq)).toEqual(made.map((_, i) => i + 1));
    expect(made.filter((s) => s.kind === 'coin').every((s) => s.cardId === undefined)).toBe(true);
  });

  it('makes coin sales only while it holds no list', () => {
    const m = machine();
    const made = Array.from({ length: 100 }, () => m.sell());
    expect(made.every((s) => s.kind === 'coin')).toBe(true);
  });
});

describe('a machine cut off the network', () => {
  it('numbers its sales on through the outage, marks the offline ones, reports them queued and sends them oldest first', async () => {
    const m = machine();
    m.start();
    await m.waitOnline();
    const before = [m.sell(), m.sell()];
    await server.waitFor('2 live sales', () => sales().length === 2);
    await server.publish(buildSalesAckTopic(ESP), { eventIds: before.map((s) => s.eventId) });
    await server.waitFor('the ack', () => m.outboxSize === 0);

    m.cutOff();
    expect(m.online).toBe(false);
    const during = Array.from({ length: 5 }, () => m.sell());
    expect(during.map((s) => [s.seq, s.offline])).toEqual([3, 4, 5, 6, 7].map((seq) => [seq, true]));
    expect(before.every((s) => s.offline === undefined)).toBe(true);
    server.messages.length = 0;

    m.reconnect();
    await m.waitOnline();
    const after = m.sell();
    await server.waitFor('the backlog and the live sale', () => sales().length === 6);
    expect(after).toMatchObject({ seq: 8 });
    expect(after.offline).toBeUndefined();
    expect(sales().map((s) => s.seq)).toEqual([3, 4, 5, 6, 7, 8]);
    // Status (with what flash holds) and the card list version come before any sale.
    expect(publishedOrder()).toEqual(['status', 'cards/ack', 'sales']);
    // (The broker's copy of the will, online: false, may land after the reset above.)
    const status = () => server.payloads<StatusPayload>(buildStatusTopic(ESP)).filter((p) => p.online);
    expect(status()[0]).toMatchObject({ online: true, queued: 5 });

    // The flash is freed only by sales/ack; when the last one comes the status says nothing is queued.
    await server.publish(buildSalesAckTopic(ESP), { eventIds: [...during, after].map((s) => s.eventId) });
    await server.waitFor('queued: 0', () => status().length === 2);
    expect(status()[1]).toMatchObject({ online: true, queued: 0 });
    expect(m.outboxSize).toBe(0);
  });

  it('stays off while cut off, whatever random outage or fault ends meanwhile', async () => {
    const m = machine();
    // A machine that only had the outage: once it is back, the cut-off one had every chance to come back too.
    const control = machine({ identity: { espId: 'ESP-OFFLINE-2', deviceKey: 'key-2' } });
    m.start();
    control.start();
    await Promise.all([m.waitOnline(), control.waitOnline()]);
    const connects = () => server.connects.filter((c) => c.clientId === ESP).length;
    const before = connects();
    m.goOffline(10);
    m.cutOff();
    const darkEnded = new Promise<void>((resolve) => m.on('fault', (_kind, on) => on || resolve()));
    m.startFault('dark', 20);
    control.goOffline(20);
    await darkEnded;
    await control.waitOnline();
    expect(m.online).toBe(false);
    expect(connects()).toBe(before);
    m.reconnect();
    await m.waitOnline();
    expect(connects()).toBe(before + 1);
  });

  it('keeps the newest sales in order when its bounded flash overflows', async () => {
    const m = machine({ outboxLimit: 3 });
    m.start();
    await m.waitOnline();
    m.cutOff();
    const sold: Sale[] = Array.from({ length: 5 }, () => m.sell());
    expect(m.stats()).toMatchObject({ outbox: 3, dropped: 2, lastSeq: 5 });
    m.reconnect();
    await server.waitFor('the backlog', () => sales().length === 3);
    expect(sales().map((s) => s.eventId)).toEqual(sold.slice(2).map((s) => s.eventId));
    expect(sales().map((s) => s.seq)).toEqual([3, 4, 5]);
  });
});
