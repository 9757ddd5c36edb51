/**
 * The simulator as firmware that sells through an outage, against the real program (PostgreSQL, Redis,
 * the embedded broker): the machine holds its owner's card list, keeps selling while cut off, and on
 * reconnect delivers its backlog so that every sale is stored once with contiguous `seq`; a card
 * blocked through the API reaches its list and the machine refuses it itself
 * (docs/device-protocol.md, "Boot, offline and reconnect: the order of operations").
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { MachineSync } from '@wv/contracts';
import { Fleet, type Machine, type MeteredSale } from '@wv/simulator';
import { createAttendant, createManager } from '../../api/test/factories/fleet.factory.js';
import { fundAttendant, registerCard } from '../../api/test/factories/money.factory.js';
import { waitFor } from '../../api/test/support/mqtt-machine.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../../api/test/support/test-app.js';

const LONG = 60_000;

describe('a simulated machine selling through a partition against the real program', () => {
  let t: TestApp;
  let fleet: Fleet | undefined;
  let admin: string;

  const sync = async (espId: string): Promise<MachineSync> => {
    const res = await t.http.get<MachineSync>(`/machines/${espId}/sync`, { token: admin });
    if (res.status !== 200) throw new Error(`GET sync: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  /** A customer paying with coins: the card balances stay the test's own. */
  const coinSale = (m: Machine) => m.sell({ kind: 'coin', cardId: undefined });

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
  });
  afterAll(async () => {
    await fleet?.stop();
    await t.close();
  });

  it('stores every sale once with contiguous seq after the backlog, and refuses a card blocked through the API', async () => {
    const manager = await createManager(t.http, admin, 1);
    const device = manager.devices[0]!;
    const attendant = await createAttendant(t.http, manager.token, device.espId);
    await fundAttendant(t.http, manager.token, attendant, 1_000);
    const spender = await registerCard(t.http, attendant.token, { card_balance: 500 });
    const lost = await registerCard(t.http, attendant.token, { card_balance: 200 });

    fleet = new Fleet({
      url: `mqtt://127.0.0.1:${t.mqttPort}`,
      identities: [device],
      rate: 0,
      seed: 21,
      sellFromCardList: true,
      reconnectDelayMs: 100,
    });
    const m: Machine = fleet.machines[0]!;
    const made: MeteredSale[] = [];
    m.on('sale', (s) => made.push(s as MeteredSale));
    await fleet.start(LONG);
    await waitFor(
      async () => m.heldCards.map((c) => c.cardId).sort(),
      (ids) => ids.length === 2,
      LONG,
    );
    expect(m.heldCards.map((c) => c.cardId).sort()).toEqual([spender.card_id, lost.card_id].sort());

    for (let i = 0; i < 5; i++) coinSale(m);
    m.cutOff();
    const card = { kind: 'card', volume: 10, waterType: 'fresh', price: 100 } as const;
    for (let i = 0; i < 30; i++) coinSale(m);
    // 500 on the card covers five sales of 100; the sixth is refused by the machine itself, offline.
    for (let i = 0; i < 5; i++) expect(m.trySell({ ...card, cardId: spender.card_id }).sale).toBeDefined();
    expect(m.trySell({ ...card, cardId: spender.card_id }).refused).toEqual({
      cardId: spender.card_id,
      reason: 'balance',
    });
    const offline = made.filter((s) => s.offline);
    expect(offline.length).toBe(35);

    m.reconnect();
    await m.waitOnline(LONG);
    for (let i = 0; i < 3; i++) coinSale(m);
    await fleet.drain(LONG);

    const stored: { event_id: string; seq: string; offline: boolean; n: string }[] = await t.dataSource.query(
      `SELECT event_id, seq::text AS seq, bool_and(offline) AS offline, count(*)::text AS n
         FROM sales WHERE esp_id = $1 GROUP BY event_id, sales.seq ORDER BY sales.seq`,
      [device.espId],
    );
    expect(stored.map((r) => r.event_id).sort()).toEqual(made.map((s) => s.eventId).sort());
    expect(stored.every((r) => r.n === '1')).toBe(true);
    expect(stored.map((r) => Number(r.seq))).toEqual(made.map((_, i) => i + 1));
    expect(
      stored
        .filter((r) => r.offline)
        .map((r) => r.event_id)
        .sort(),
    ).toEqual(offline.map((s) => s.eventId).sort());
    const synced = await sync(device.espId);
    expect(synced).toMatchObject({ lastSeq: made.length, missing: [] });
    const balance = async () =>
      Number(
        (await t.dataSource.query(`SELECT balance::text AS b FROM cards WHERE card_id = $1`, [spender.card_id]))[0].b,
      );
    expect(await balance()).toBe(0);

    // Blocked through the API: the list follows within seconds and the machine refuses the card, online or not.
    const blocked = await t.http.post(`/cards/${lost.card_id}/block`, { reason: 'lost' }, { token: attendant.token });
    expect(blocked.status).toBe(200);
    await waitFor(
      async () => m.heldCards.find((c) => c.cardId === lost.card_id)?.status,
      (status) => status === 'blocked',
      LONG,
    );
    expect(m.trySell({ ...card, cardId: lost.card_id }).refused).toEqual({ cardId: lost.card_id, reason: 'blocked' });
    m.cutOff();
    expect(m.trySell({ ...card, cardId: lost.card_id }).refused).toEqual({ cardId: lost.card_id, reason: 'blocked' });
    m.reconnect();
    await waitFor(
      () => sync(device.espId),
      (s) => s.cardListAckedVersion === s.cardListVersion && s.cardListVersion === m.cardListVersion,
      LONG,
    );
    const flagged = await t.dataSource.query(`SELECT count(*)::int AS n FROM sales WHERE card_id = $1`, [lost.card_id]);
    expect(flagged).toEqual([{ n: 0 }]);
  });
});
