import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { buildCardsAckTopic, buildCardsTopic } from '@wv/contracts';
import mqtt from 'mqtt';
import { randomUUID } from 'node:crypto';
import { startApp, type RunningApp } from '../../src/bootstrap.js';
import { CardListFlusher } from '../../src/card-list/card-list-flusher.js';
import { DELTA_ACK_TIMEOUT_S } from '../../src/card-list/card-list-planner.js';
import { CardListSignals } from '../../src/card-list/card-list-signals.js';
import { CardListVersions } from '../../src/card-list/card-list-versions.js';
import { createAttendant, createManager, provisionDevice } from '../factories/fleet.factory.js';
import { fundAttendant, registerCard } from '../factories/money.factory.js';
import { CardListMachine } from '../support/card-list-machine.js';
import { waitFor } from '../support/mqtt-machine.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../support/test-app.js';

type Manager = Awaited<ReturnType<typeof createManager>>;
type Attendant = Awaited<ReturnType<typeof createAttendant>>;

describe('card lists on the machines', () => {
  let t: TestApp;
  let admin: string;
  let a: Manager;
  let b: Manager;
  let attendantA: Attendant;
  let attendantB: Attendant;
  const cardsA: string[] = [];
  let cardB: string;
  let machinesA: CardListMachine[];
  let machineB: CardListMachine;
  const versions = () => t.running.app.get(CardListVersions);

  async function balances(cardIds: string[]): Promise<Map<string, number>> {
    const rows: { cardId: string; balance: string }[] = await t.dataSource.query(
      `SELECT card_id AS "cardId", balance::text AS balance FROM cards WHERE card_id = ANY($1)`,
      [cardIds],
    );
    return new Map(rows.map((r) => [r.cardId, Number(r.balance)]));
  }

  /** Every machine holds its newest version, and the server knows it (no list is on its way). */
  async function settled(machines: CardListMachine[]): Promise<void> {
    for (const m of machines) {
      await waitFor(
        () => versions().forMachine(m.espId),
        (s) => s.cardListAckedVersion === s.cardListVersion && s.cardListVersion === m.held.version,
        30_000,
      );
    }
  }

  const holdsCards = (machine: CardListMachine, cardIds: string[]) => () =>
    cardIds.every((id) => machine.held.cards.has(id));

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    a = await createManager(t.http, admin, 4);
    b = await createManager(t.http, admin, 1);
    attendantA = await createAttendant(t.http, a.token, a.devices[0]!.espId);
    attendantB = await createAttendant(t.http, b.token, b.devices[0]!.espId);
    await fundAttendant(t.http, a.token, attendantA, 100_000);
    await fundAttendant(t.http, b.token, attendantB, 1000);
    for (let i = 0; i < 20; i++) {
      cardsA.push((await registerCard(t.http, attendantA.token, { card_balance: 1000 })).card_id);
    }
    cardB = (await registerCard(t.http, attendantB.token, { card_balance: 50 })).card_id;
    machinesA = [];
    for (const d of a.devices.slice(0, 3))
      machinesA.push(await CardListMachine.connect(t.mqttPort, d.espId, d.deviceKey));
    machineB = await CardListMachine.connect(t.mqttPort, b.devices[0]!.espId, b.devices[0]!.deviceKey);
  });

  afterAll(async () => {
    await Promise.all([...(machinesA ?? []), machineB].filter(Boolean).map((m) => m.end()));
    await t?.close();
  });

  it('gives every machine the list of its owner’s cards and records the version it acknowledged', async () => {
    for (const m of machinesA) await m.until(holdsCards(m, cardsA), 'the owner’s 20 cards');
    await machineB.until(holdsCards(machineB, [cardB]), 'its owner’s card');
    for (const m of machinesA) {
      expect(m.held.cards.size).toBe(20);
      expect(m.held.cards.get(cardsA[0]!)).toEqual({
        cardId: cardsA[0],
        status: 'active',
        balance: 1000,
        dailyLimitLitres: null,
      });
    }
    expect([...machineB.held.cards.keys()]).toEqual([cardB]);
    // The server records the version each machine said it holds (GET /machines/{espId}/sync reads it).
    for (const m of [...machinesA, machineB]) {
      const state = await waitFor(
        () => versions().forMachine(m.espId),
        (s) => s.cardListAckedVersion === m.held.version,
      );
      expect(state.cardListVersion).toBe(m.held.version);
    }
    const sync = await t.http.get(`/machines/${machinesA[1]!.espId}/sync`, { token: a.token });
    expect(sync.status).toBe(200);
    expect(sync.body).toMatchObject({
      cardListVersion: machinesA[1]!.held.version,
      cardListAckedVersion: machinesA[1]!.held.version,
    });
  });

  it('delivers the full list as a retained message to a machine that subscribes again', async () => {
    const device = a.devices[0]!;
    await machinesA[0]!.end();
    const again = await CardListMachine.connect(t.mqttPort, device.espId, device.deviceKey, machinesA[0]!.held);
    machinesA[0] = again;
    await again.until(() => again.messages.some((m) => m.kind === 'full' && m.retained), 'a retained full list');
    const retained = again.messages.find((m) => m.kind === 'full' && m.retained)!;
    // The retained copy is the last full list; the deltas since are not retained, so it may be older.
    expect(retained.kind === 'full' && retained.payload.version).toBeLessThanOrEqual(again.held.version);
    const retainedIds = retained.kind === 'full' ? retained.payload.cards.map((c) => c.cardId) : [];
    expect(retainedIds.every((id) => cardsA.includes(id))).toBe(true);
  });

  // How fast a change reaches the lists is measured by `npm run bench -- card-lists`, not asserted here.
  it('sends a change to every machine of the owner as a delta, and nothing to another tenant', async () => {
    await settled(machinesA);
    const before = machinesA.map((m) => m.held.version);
    const bMessages = machineB.messages.length;
    const res = await t.http.post(`/att/cards/${cardsA[1]}/top-up`, { amount: 25.5 }, { token: attendantA.token });
    expect(res.status).toBe(201);
    const changedAt = Date.now();
    await Promise.all(machinesA.map((m) => m.until(() => m.balanceOf(cardsA[1]!) === 1025.5, 'the new balance')));
    machinesA.forEach((m, i) => {
      const delta = m.messagesSince(changedAt - 50).find((x) => x.kind === 'delta');
      expect(delta).toBeDefined();
      if (delta?.kind !== 'delta') return;
      expect(delta.payload.baseVersion).toBe(before[i]);
      expect(delta.payload.version).toBe(before[i]! + 1);
      expect(delta.payload.upserts).toEqual([
        { cardId: cardsA[1], status: 'active', balance: 1025.5, dailyLimitLitres: null },
      ]);
      expect(delta.payload.removals).toEqual([]);
      // (A retained copy delivered at a subscription is not a message sent for the change.)
      expect(m.messagesSince(changedAt - 50).filter((x) => x.kind === 'full' && !x.retained)).toEqual([]);
    });
    expect(machineB.messages.length).toBe(bMessages);
  });

  it('sends the full list to a machine that missed a delta (its acknowledged version is not the base)', async () => {
    await settled(machinesA);
    const laggard = machinesA[1]!;
    laggard.ignoreDeltas = true;
    const start = Date.now();
    await t.http.post(`/att/cards/${cardsA[2]}/top-up`, { amount: 1 }, { token: attendantA.token });
    await laggard.until(() => laggard.messagesSince(start).some((m) => m.kind === 'delta'), 'the delta it drops');
    expect(laggard.balanceOf(cardsA[2]!)).toBe(1000);
    await t.http.post(`/att/cards/${cardsA[2]}/top-up`, { amount: 2 }, { token: attendantA.token });
    await laggard.until(() => laggard.balanceOf(cardsA[2]!) === 1003, 'the full list');
    const full = laggard.messagesSince(start).find((m) => m.kind === 'full');
    expect(full?.kind === 'full' && full.payload.cards).toHaveLength(20);
    // The others acknowledged each delta and got deltas both times.
    for (const m of [machinesA[0]!, machinesA[2]!]) {
      const sent = m.messagesSince(start).filter((x) => x.kind === 'delta' || !x.retained);
      expect(sent.map((x) => x.kind)).toEqual(['delta', 'delta']);
      expect(m.balanceOf(cardsA[2]!)).toBe(1003);
    }
    laggard.ignoreDeltas = false;
  });

  it('sends the full list to a machine that left a delta unacknowledged, when nothing else changes', async () => {
    await settled(machinesA);
    const laggard = machinesA[1]!;
    laggard.ignoreDeltas = true;
    const start = Date.now();
    await t.http.post(`/att/cards/${cardsA[9]}/top-up`, { amount: 4 }, { token: attendantA.token });
    await laggard.until(() => laggard.messagesSince(start).some((m) => m.kind === 'delta'), 'the delta it drops');
    laggard.ignoreDeltas = false;
    // No other change follows: after DELTA_ACK_TIMEOUT_S (30 s) the delta counts as lost.
    await laggard.until(() => laggard.balanceOf(cardsA[9]!) === 1004, 'the full list', 90_000);
    const full = laggard.messagesSince(start).find((m) => m.kind === 'full');
    expect(full && full.at - start).toBeGreaterThanOrEqual(DELTA_ACK_TIMEOUT_S * 1000 - 2000);
  }, 120_000);

  it('sends the full list to a machine that connects holding an older version', async () => {
    const device = a.devices[2]!;
    const away = machinesA[2]!;
    await away.end();
    const heldVersion = away.held.version;
    const held = { version: heldVersion, cards: new Map(away.held.cards) };
    await t.http.post(`/att/cards/${cardsA[3]}/top-up`, { amount: 7 }, { token: attendantA.token });
    await machinesA[0]!.until(() => machinesA[0]!.balanceOf(cardsA[3]!) === 1007, 'the change at a connected machine');
    expect((await versions().forMachine(device.espId)).cardListVersion).toBeGreaterThan(heldVersion);

    const back = await CardListMachine.connect(t.mqttPort, device.espId, device.deviceKey, held);
    machinesA[2] = back;
    await back.until(() => back.balanceOf(cardsA[3]!) === 1007, 'the newest full list');
    expect(back.messages.some((m) => m.kind === 'full' && !m.retained && m.payload.version > heldVersion)).toBe(true);
    const state = await waitFor(
      () => versions().forMachine(device.espId),
      (s) => s.cardListAckedVersion === s.cardListVersion,
    );
    expect(state.cardListAckedVersion).toBe(back.held.version);
  });

  it('sends the full list again to a machine that lost its list (acknowledges an older version)', async () => {
    const m = machinesA[0]!;
    const start = Date.now();
    m.held.version = 0;
    m.held.cards = new Map();
    m.ack(0);
    await m.until(holdsCards(m, cardsA), 'the full list again');
    expect(m.messagesSince(start).some((x) => x.kind === 'full' && !x.retained)).toBe(true);
  });

  it('ignores an invalid acknowledgement, and outnumbers a version it never issued', async () => {
    const m = machinesA[0]!;
    await m.until(() => m.held.version > 0, 'a list');
    const before = await waitFor(
      () => versions().forMachine(m.espId),
      (v) => v.cardListAckedVersion === m.held.version && v.cardListVersion === m.held.version,
    );
    for (const junk of ['not json', '{"version":-1}', '{"version":"7"}', '{"version":1.5}', '{}']) {
      await m.client.publishAsync(buildCardsAckTopic(m.espId), junk, { qos: 1 });
    }
    await new Promise((r) => setTimeout(r, 500));
    expect(await versions().forMachine(m.espId)).toEqual(before);
    // A machine holding a version beyond the newest (the server's database was restored from an
    // older backup) ignores every lower one; the server continues past it.
    const claimed = before.cardListVersion + 1000;
    m.held.version = claimed;
    m.ack(claimed);
    await m.until(() => m.held.version > claimed, 'a list newer than the one it claims');
    expect(m.held.cards.size).toBe(cardsA.length);
  });

  it('carries blocks and limits, and sends another owner’s machine nothing of them', async () => {
    const bCount = machineB.messages.length;
    await t.dataSource.query(
      `UPDATE cards SET status = 'blocked', blocked_at = now(), blocked_reason = 'lost', daily_limit_litres = 40
       WHERE card_id = $1`,
      [cardsA[4]],
    );
    await t.running.app.get(CardListSignals).cardsChanged([cardsA[4]!]);
    await Promise.all(
      machinesA.map((m) =>
        m.until(() => m.held.cards.get(cardsA[4]!)?.status === 'blocked', 'the blocked card', 15_000),
      ),
    );
    expect(machinesA[0]!.held.cards.get(cardsA[4]!)).toMatchObject({ dailyLimitLitres: 40 });
    expect(machineB.messages.length).toBe(bCount);
  });

  it('follows blocks, limits and replacements made through the API', async () => {
    const [blocked, limited, replaced] = [cardsA[5]!, cardsA[6]!, cardsA[7]!];
    const newCard = `NEW-${randomUUID().slice(0, 8)}`;
    const post = (path: string, body: unknown) => t.http.post(path, body, { token: a.token });
    expect((await post(`/cards/${blocked}/block`, { reason: 'reported stolen' })).status).toBe(200);
    expect((await t.http.put(`/cards/${limited}/limits`, { dailyLimitLitres: 60 }, { token: a.token })).status).toBe(
      200,
    );
    const balance = (await balances([replaced])).get(replaced);
    expect((await post(`/cards/${replaced}/replace`, { newCardId: newCard })).status).toBe(201);
    for (const m of machinesA) {
      await m.until(
        () =>
          m.held.cards.get(blocked)?.status === 'blocked' &&
          m.held.cards.get(limited)?.dailyLimitLitres === 60 &&
          m.held.cards.get(replaced)?.status === 'blocked' &&
          m.balanceOf(newCard) === balance,
        'the block, the limit and the replacement',
      );
      expect(m.held.cards.get(replaced)).toMatchObject({ balance: 0 });
      expect(m.held.cards.get(newCard)).toMatchObject({ status: 'active' });
    }
    cardsA.push(newCard);
  });

  it('batches 10,000 card sales into a bounded number of messages per machine, ending on the stored balances', async () => {
    const seller = machinesA[0]!;
    for (const m of machinesA) await m.until(() => m.held.version > 0, 'a list');
    const start = Date.now();
    const counts = machinesA.map((m) => m.messages.length);
    const bCount = machineB.messages.length;
    const total = 10_000;
    const sales = Array.from({ length: total }, (_, i) => ({
      eventId: `burst-${randomUUID()}`,
      kind: 'card',
      cardId: cardsA[i % cardsA.length],
      price: 0.01,
      volume: 0.5,
      waterType: 'pure',
    }));
    for (let i = 0; i < total; i += 500) await seller.publishSales(sales.slice(i, i + 500));
    const ids = sales.map((s) => s.eventId);
    await waitFor(
      () => t.dataSource.query(`SELECT count(*)::int AS n FROM sales WHERE event_id = ANY($1)`, [ids]),
      (rows: { n: number }[]) => rows[0]!.n === total,
      120_000,
    );
    const committedAt = Date.now();
    const stored = await balances(cardsA);
    for (const m of machinesA) {
      await m.until(() => cardsA.every((id) => m.balanceOf(id) === stored.get(id)), 'the stored balances', 30_000);
    }
    const settledAt = Date.now();
    // At most one message per flush interval (2 s) over the burst and the last flush, and a margin
    // of two for a full list in the race of a delta with its acknowledgement.
    const bound = Math.ceil((settledAt - start) / 2000) + 3;
    machinesA.forEach((m, i) => {
      const received = m.messages.length - counts[i]!;
      expect(received).toBeGreaterThan(0);
      expect(received).toBeLessThanOrEqual(bound);
    });
    expect(machineB.messages.length).toBe(bCount);
    // Informational: how the burst went on this machine.
    console.log(
      `card-list burst: ${total} sales committed in ${committedAt - start} ms, lists settled after ` +
        `${settledAt - start} ms, messages per machine ${machinesA.map((m, i) => m.messages.length - counts[i]!).join('/')} (bound ${bound})`,
    );
  }, 240_000);

  it('gives an unowned machine only its own cards, and moves them to the owner’s machines when it gets an owner', async () => {
    const lone = await provisionDevice(t.http, admin);
    // An unowned machine has no attendant to register cards: the card is written as the ledger would.
    const loneCard = `LONE-${randomUUID().slice(0, 8)}`;
    await t.dataSource.query(
      `INSERT INTO cards (card_id, esp_id, holder_first_name, holder_last_name, card_type, balance, registered_by)
       VALUES ($1, $2, 'Neema', 'Juma', 'household', 0, $3)`,
      [loneCard, lone.espId, attendantA.userId],
    );
    await t.running.app.get(CardListSignals).cardsChanged([loneCard]);
    const machine = await CardListMachine.connect(t.mqttPort, lone.espId, lone.deviceKey);
    try {
      await machine.until(() => machine.held.cards.has(loneCard), 'its own card');
      expect([...machine.held.cards.keys()]).toEqual([loneCard]);
      for (const m of machinesA) expect(m.held.cards.has(loneCard)).toBe(false);

      const start = Date.now();
      const added = await t.http.post(
        '/add/user/devices',
        { userId: a.userId, esp32Id: lone.espId, machine_location: 'Tegeta' },
        { token: admin },
      );
      expect(added.status).toBe(201);
      await machine.until(holdsCards(machine, [loneCard, ...cardsA]), 'the new owner’s cards');
      for (const m of machinesA) {
        await m.until(() => m.held.cards.has(loneCard), 'the card of the owner’s new machine');
        expect(m.messagesSince(start).filter((x) => x.kind === 'full' && !x.retained)).toEqual([]);
      }
      expect(machineB.held.cards.has(loneCard)).toBe(false);
    } finally {
      await machine.end();
    }
  });

  it('repairs a change whose notice was lost, at the periodic reconciliation', async () => {
    const card = cardsA[8]!;
    // A balance changed with no notice at all (as if the process died between commit and notice).
    await t.dataSource.query(`UPDATE cards SET balance = 4321.5 WHERE card_id = $1`, [card]);
    const flusher = t.running.app.get(CardListFlusher);
    await waitFor(
      () => flusher.flush({ reconcile: true }),
      (r) => r.ran && r.messages > 0,
      30_000,
    );
    for (const m of machinesA) await m.until(() => m.balanceOf(card) === 4321.5, 'the repaired balance', 15_000);
    await t.dataSource.query(`UPDATE cards SET balance = 1000 WHERE card_id = $1`, [card]);
    await t.running.app.get(CardListSignals).cardsChanged([card]);
    for (const m of machinesA) await m.until(() => m.balanceOf(card) === 1000, 'the balance put back');
  });

  it('sends a machine that is away one full list, not one per change, and the newest when it connects', async () => {
    const away = a.devices[3]!;
    // Never connected while dozens of versions went to the other machines: only its first list was sent.
    const [state] = await t.dataSource.query(
      `SELECT version, full_version AS "fullVersion", acked_version AS "ackedVersion", stale
       FROM card_list_state WHERE esp_id = $1`,
      [away.espId],
    );
    // (Its first list, and another when it was given to its manager.)
    expect(state).toEqual({ version: state.fullVersion, fullVersion: state.fullVersion, ackedVersion: 0, stale: true });
    expect(state.version).toBeLessThanOrEqual(3);
    expect(machinesA[0]!.held.version).toBeGreaterThan(10);
    const m = await CardListMachine.connect(t.mqttPort, away.espId, away.deviceKey);
    try {
      const stored = await balances(cardsA);
      await m.until(() => cardsA.every((id) => m.balanceOf(id) === stored.get(id)), 'the newest list');
      expect(m.messages.map((x) => x.kind)).toEqual(['full', 'full']);
      expect(m.held.version).toBe(state.version + 1);
    } finally {
      await m.end();
    }
  });

  it('never sent a machine a card of another owner', () => {
    const ownA = new Set(machinesA.flatMap((m) => [...m.held.cards.keys()]));
    for (const m of machinesA) {
      for (const msg of m.messages) {
        const cards = msg.kind === 'full' ? msg.payload.cards : msg.payload.upserts;
        expect(cards.map((c) => c.cardId)).not.toContain(cardB);
      }
    }
    for (const msg of machineB.messages) {
      const cards = msg.kind === 'full' ? msg.payload.cards : msg.payload.upserts;
      expect(cards.map((c) => c.cardId)).toEqual(cards.length ? [cardB] : []);
      expect(cards.some((c) => ownA.has(c.cardId))).toBe(false);
    }
  });

  it('closes the connection of a machine that publishes to another machine’s cards/ack, which records nothing', async () => {
    const intruder = a.devices[3]!;
    const victim = b.devices[0]!.espId;
    const before = await versions().forMachine(victim);
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${t.mqttPort}`, {
      clientId: intruder.espId,
      username: intruder.espId,
      password: intruder.deviceKey,
      protocolVersion: 4,
      reconnectPeriod: 0,
    });
    const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
    client.publish(buildCardsAckTopic(victim), JSON.stringify({ version: 0 }), { qos: 0 });
    await closed;
    await client.endAsync(true);
    // Its own acknowledgement topic is the only one it may use: what it claimed of the victim changed nothing.
    await new Promise((r) => setTimeout(r, 500));
    expect(await versions().forMachine(victim)).toEqual(before);
    // And it may not subscribe to another machine's lists either.
    const again = await mqtt.connectAsync(`mqtt://127.0.0.1:${t.mqttPort}`, {
      clientId: intruder.espId,
      username: intruder.espId,
      password: intruder.deviceKey,
      protocolVersion: 4,
      reconnectPeriod: 0,
    });
    // SUBACK 0x80 for the filter (mqtt.js rejects the subscription with it); the connection stays up.
    await expect(again.subscribeAsync(buildCardsTopic(victim), { qos: 1 })).rejects.toThrow(/Subscribe error/);
    expect(again.connected).toBe(true);
    await again.endAsync(true);
  });
});

/**
 * APP_ROLES apart (docs/architecture.md, "Roles as processes"): the api and broker in one program, two
 * worker programs flushing the lists. A change noted in the api process (a top-up) and one committed in
 * a worker (a card sale) both reach the machine, each version once and in order.
 */
describe('card lists with the roles in separate processes', () => {
  let t: TestApp;
  let workers: RunningApp[] = [];
  let machine: CardListMachine | undefined;

  beforeAll(async () => {
    t = await createTestApp({ APP_ROLES: 'api,broker' });
    workers = [
      await startApp({ ...t.config, port: 0, roles: new Set(['worker']) }),
      await startApp({ ...t.config, port: 0, roles: new Set(['worker']) }),
    ];
  });
  afterAll(async () => {
    await machine?.end();
    for (const w of workers) await w.close();
    await t.close();
  });

  it('delivers changes from the api process and from a worker, one version after the other', async () => {
    const admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    const manager = await createManager(t.http, admin, 2);
    const attendant = await createAttendant(t.http, manager.token, manager.devices[0]!.espId);
    await fundAttendant(t.http, manager.token, attendant, 500);
    const card = (await registerCard(t.http, attendant.token, { card_balance: 100 })).card_id;
    const device = manager.devices[1]!;
    const m = await CardListMachine.connect(t.mqttPort, device.espId, device.deviceKey);
    machine = m;
    await m.until(() => m.balanceOf(card) === 100, 'the registered card');

    const top = await t.http.post(`/att/cards/${card}/top-up`, { amount: 20 }, { token: attendant.token });
    expect(top.status).toBe(201);
    await m.until(() => m.balanceOf(card) === 120, 'the top-up');
    await m.publishSales([
      { eventId: randomUUID(), kind: 'card', cardId: card, price: 5, volume: 1, waterType: 'cold' },
    ]);
    await m.until(() => m.balanceOf(card) === 115, 'the sale committed by a worker');

    const seen = m.messages.map((x) => x.payload.version);
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort((x, y) => x - y)).toEqual(seen);
    for (const x of m.messages) {
      if (x.kind === 'delta') expect(x.payload.version).toBe(x.payload.baseVersion + 1);
    }
  });
});
