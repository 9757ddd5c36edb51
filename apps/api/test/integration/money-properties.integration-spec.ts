import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { createAttendant, createManager } from '../factories/fleet.factory.js';
import { cardFields, fundAttendant, ledgerViolations } from '../factories/money.factory.js';
import { linearize, type Answer, type Call, type Model, type ServerState } from '../support/money-model.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../support/test-app.js';

const RUNS = Number(process.env.MONEY_RUNS ?? 1000);
const MAX_BATCH = 4;

/** An operation as generated: indices pick among the requests and cards that exist when it runs. */
type Op = (
  | { t: 'request'; att: number; amount: number }
  | { t: 'approve'; req: number; amount: number }
  | { t: 'approveOldest'; att: number; amount: number }
  | { t: 'reject'; req: number }
  | { t: 'register'; att: number; amount: number }
  | { t: 'registerTaken'; att: number; card: number }
  | { t: 'topUp'; att: number; card: number; amount: number }
  | { t: 'sale'; card: number; price: number }
  | { t: 'retry'; of: number; sameBody: boolean }
) & { join: boolean; dup: boolean; keyed: boolean };

const att = fc.integer({ min: 0, max: 1 });
const cents = (max: number) => fc.integer({ min: 1, max });
// Two thirds of the ops run at once with the one before; a quarter are sent twice at once with one key; most carry a key.
const flags = {
  join: fc.constantFrom(false, true, true),
  dup: fc.constantFrom(false, false, false, true),
  keyed: fc.constantFrom(false, true, true, true),
};
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ t: fc.constant('request' as const), att, amount: cents(50_000), ...flags }) },
  {
    weight: 3,
    arbitrary: fc.record({ t: fc.constant('approve' as const), req: fc.nat(), amount: cents(50_000), ...flags }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ t: fc.constant('approveOldest' as const), att, amount: cents(50_000), ...flags }),
  },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('reject' as const), req: fc.nat(), ...flags }) },
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant('register' as const),
      att,
      amount: fc.integer({ min: 0, max: 30_000 }),
      ...flags,
    }),
  },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('registerTaken' as const), att, card: fc.nat(), ...flags }) },
  {
    weight: 3,
    arbitrary: fc.record({ t: fc.constant('topUp' as const), att, card: fc.nat(), amount: cents(20_000), ...flags }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ t: fc.constant('sale' as const), card: fc.nat(), price: cents(5_000), ...flags }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ t: fc.constant('retry' as const), of: fc.nat(), sameBody: fc.boolean(), ...flags }),
  },
);

type Staff = Awaited<ReturnType<typeof createAttendant>> & { device: { espId: string; deviceKey: string } };

/** One cent more, as a JSON number with 2 decimals (`x + 0.01` can carry floating-point noise). */
const centMore = (amount: unknown) => (Math.round(Number(amount) * 100) + 1) / 100;

/** The same call with another body: a retry that must be refused (422), or null for a call without body. */
function altered(body: Record<string, unknown> | undefined): Record<string, unknown> | null {
  if (body && 'amount' in body) return { ...body, amount: centMore(body.amount) };
  if (body && 'card_balance' in body) return { ...body, card_balance: centMore(body.card_balance) };
  return null;
}

interface Sent {
  method: string;
  path: string;
  token: string;
  body?: Record<string, unknown>;
  key: string | null;
  answer: Answer;
}

/**
 * Random sequences of concurrent money operations against a simple model (docs/rest-api.md, "Endpoints"): float
 * requests, approvals, rejections, card loads, top-ups, card sales through the ingest, duplicates sent
 * at once and retries with the same Idempotency-Key. After every batch, some serial order of its calls
 * must explain every answer and the database; after every run, the ledger's invariants must hold.
 */
describe('money ledger properties', () => {
  let t: TestApp;
  let manager: Awaited<ReturnType<typeof createManager>>;
  let attendants: Staff[];
  let runNo = 0;
  let batches = 0;
  let calls = 0;

  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  async function send(s: Omit<Sent, 'answer'>): Promise<Answer> {
    calls++;
    const res = await t.http.request(s.method, s.path, {
      token: s.token,
      body: s.body,
      headers: s.key ? { 'idempotency-key': s.key } : {},
    });
    return { status: res.status, body: res.body };
  }

  async function sell(espId: string, deviceKey: string, cardId: string, price: number): Promise<Answer> {
    calls++;
    const eventId = randomUUID();
    const sale = { eventId, kind: 'card', cardId, price: price / 100, volume: 1, waterType: 'cold' };
    const res = await t.http.post(`/machines/${espId}/sales`, sale, { headers: { 'x-device-key': deviceKey } });
    expect(res.status).toBe(202);
    for (let i = 0; i < 2000; i++) {
      const rows = await t.dataSource.query(`SELECT 1 FROM sales WHERE esp_id = $1 AND event_id = $2`, [
        espId,
        eventId,
      ]);
      if (rows.length) return { status: res.status };
      await sleep(5);
    }
    throw new Error(`sale ${eventId} was not committed in time`);
  }

  async function serverState(runStart: string, cardIds: string[]): Promise<ServerState> {
    const ids: string[] = attendants.map((a) => a.userId);
    const [floats, cards, requests] = await Promise.all([
      t.dataSource.query(
        `SELECT attendant_id AS id, (balance * 100)::bigint::int AS c FROM float_accounts WHERE attendant_id = ANY($1)`,
        [ids],
      ),
      t.dataSource.query(`SELECT card_id AS id, (balance * 100)::bigint::int AS c FROM cards WHERE card_id = ANY($1)`, [
        cardIds,
      ]),
      t.dataSource.query(
        `SELECT id, attendant_id AS "attId", (requested_amount * 100)::int AS amount, status,
                (approved_amount * 100)::int AS approved
         FROM float_requests WHERE attendant_id = ANY($1) AND requested_at >= $2 ORDER BY requested_at, id`,
        [ids, runStart],
      ),
    ]);
    return {
      float: ids.map((id) => floats.find((f: { id: string }) => f.id === id)?.c ?? 0),
      cards: new Map(cards.map((c: { id: string; c: number }) => [c.id, c.c])),
      requests: requests.map(
        (r: { id: string; attId: string; amount: number; status: never; approved: number | null }) => ({
          id: r.id,
          att: ids.indexOf(r.attId),
          amount: r.amount,
          status: r.status,
          approved: r.approved,
        }),
      ),
    };
  }

  async function run(ops: Op[]): Promise<void> {
    const run = ++runNo;
    const [{ now }] = await t.dataSource.query(`SELECT clock_timestamp() AS now`);
    const initial = await serverState(now, []);
    let model: Model = { float: initial.float, cards: new Map(), requests: [] };
    const sent: Sent[] = [];
    const cardIds: string[] = [];

    // Batches: an op with `join` runs at once with the ones before it (at most MAX_BATCH together).
    const groups: Op[][] = [];
    for (const o of ops) {
      const last = groups.at(-1);
      if (o.join && last && last.length < MAX_BATCH) last.push(o);
      else groups.push([o]);
    }

    for (const [g, group] of groups.entries()) {
      batches++;
      const known = model.requests.filter((r) => r.id !== null);
      const cards = [...model.cards.keys()];
      const done = sent.filter((s) => s.key !== null);
      const work = group.map(async (o, i): Promise<{ call: Call; answer: Answer } | null> => {
        const a = 'att' in o ? attendants[o.att]! : attendants[0]!;
        const key = o.keyed || o.dup ? randomUUID() : null;
        let call: Call;
        let request: Omit<Sent, 'answer'>;
        switch (o.t) {
          case 'retry': {
            if (done.length === 0) return null;
            const first = done[o.of % done.length]!;
            const other = o.sameBody ? null : altered(first.body);
            const answer = await send({ ...first, body: other ?? first.body });
            // The same key and body replay the first answer; another body is refused and changes nothing.
            if (other) expect(answer).toMatchObject({ status: 422, body: { code: 'IdempotencyKeyReused' } });
            else expect(answer).toEqual(first.answer);
            return null;
          }
          case 'sale': {
            if (cards.length === 0) return null;
            const cardId = cards[o.card % cards.length]!;
            const device = attendants[model.cards.get(cardId)!.att]!.device;
            return {
              call: { t: 'sale', cardId, price: o.price },
              answer: await sell(device.espId, device.deviceKey, cardId, o.price),
            };
          }
          case 'request':
            call = { t: 'request', att: o.att, amount: o.amount };
            request = {
              method: 'POST',
              path: '/attendant/request-float',
              token: a.token,
              body: { amount: o.amount / 100 },
              key,
            };
            break;
          case 'approve':
          case 'reject': {
            if (known.length === 0) return null;
            const r = known[o.req % known.length]!;
            if (o.t === 'approve') {
              call = { t: 'approve', requestId: r.id!, att: r.att, amount: o.amount };
              const body = { attendantId: attendants[r.att]!.userId, amount: o.amount / 100, requestId: r.id };
              request = { method: 'POST', path: '/manager/assign-float', token: manager.token, body, key };
            } else {
              call = { t: 'reject', requestId: r.id! };
              request = { method: 'POST', path: `/manager/float-requests/${r.id}/reject`, token: manager.token, key };
            }
            break;
          }
          case 'approveOldest':
            call = { t: 'approveOldest', att: o.att, amount: o.amount };
            request = {
              method: 'POST',
              path: '/manager/assign-float',
              token: manager.token,
              body: { attendantId: a.userId, amount: o.amount / 100 },
              key,
            };
            break;
          case 'register':
          case 'registerTaken': {
            if (o.t === 'registerTaken' && cards.length === 0) return null;
            const cardId = o.t === 'register' ? `P${run}-${g}-${i}` : cards[o.card % cards.length]!;
            const amount = o.t === 'register' ? o.amount : 100;
            if (o.t === 'register') cardIds.push(cardId);
            call = { t: 'register', att: o.att, cardId, amount };
            const body = cardFields({ card_id: cardId, card_balance: amount / 100, phoneNumber: undefined });
            request = { method: 'POST', path: '/att/add/user/card', token: a.token, body, key };
            break;
          }
          case 'topUp': {
            if (cards.length === 0) return null;
            const cardId = cards[o.card % cards.length]!;
            call = { t: 'topUp', att: o.att, cardId, amount: o.amount };
            const path = `/att/cards/${cardId}/top-up`;
            request = { method: 'POST', path, token: a.token, body: { amount: o.amount / 100 }, key };
            break;
          }
        }
        const answers = await Promise.all(Array.from({ length: o.dup ? 2 : 1 }, () => send(request)));
        // A duplicate sent at once with the same key gets the very same answer, and acts once.
        if (o.dup) expect(answers[1]).toEqual(answers[0]);
        sent.push({ ...request, answer: answers[0]! });
        return { call, answer: answers[0]! };
      });
      const batch = (await Promise.all(work)).filter((x) => x !== null);
      // A lone call's effect follows from its answer alone; the server is compared when a batch could
      // be ambiguous, when new requests need their ids, and at the end of the run.
      const compare = batch.length > 1 || batch.some((b) => b.call.t === 'request') || g === groups.length - 1;
      const server = compare ? await serverState(now, cardIds) : null;
      const next = linearize(model, batch, server);
      if (!next) {
        const seen = {
          model: { ...model, cards: [...model.cards] },
          batch,
          server: server && { ...server, cards: [...server.cards] },
        };
        throw new Error(`run ${run} batch ${g}: no serial order explains the answers: ${JSON.stringify(seen)}`);
      }
      model = next;
    }

    // Leave no pending request behind, so that the next run's oldest-first approvals start clean.
    const cleared = await Promise.all(
      model.requests
        .filter((r) => r.status === 'pending')
        .map((r) =>
          send({ method: 'POST', path: `/manager/float-requests/${r.id}/reject`, token: manager.token, key: null }),
        ),
    );
    expect(cleared.every((answer) => answer.status === 200)).toBe(true);

    // The ledger's invariants, over everything so far.
    expect(await ledgerViolations(t.dataSource)).toEqual([]);
    // Money that entered (approved float) = float left + card balances + card sales debited.
    const [money] = await t.dataSource.query(`
      WITH m AS (
        SELECT (SELECT coalesce(sum(approved_amount), 0) FROM float_requests WHERE status = 'approved') AS approved,
               (SELECT coalesce(sum(amount), 0) FROM ledger_entries WHERE kind = 'float_approval') AS entered,
               (SELECT coalesce(sum(balance), 0) FROM float_accounts) AS float,
               (SELECT coalesce(sum(balance), 0) FROM cards) AS cards,
               (SELECT coalesce(-sum(amount), 0) FROM ledger_entries WHERE kind = 'sale') AS sold)
      SELECT approved::text, entered::text, (float + cards + sold)::text AS held FROM m`);
    expect(money).toEqual({ approved: money.entered, entered: money.held, held: money.held });
  }

  beforeAll(async () => {
    t = await createTestApp();
    const admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    manager = await createManager(t.http, admin, 2);
    attendants = [];
    for (const device of manager.devices) {
      attendants.push({ ...(await createAttendant(t.http, manager.token, device.espId)), device });
    }
    await fundAttendant(t.http, manager.token, attendants[0]!, 100);
  }, 60_000);
  afterAll(() => t.close());

  it(`holds its invariants over ${RUNS} random runs of concurrent money operations`, async () => {
    const started = Date.now();
    await fc.assert(fc.asyncProperty(fc.array(op, { minLength: 5, maxLength: 15 }), run), { numRuns: RUNS });
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(`money properties: ${runNo} runs, ${batches} batches, ${calls} calls in ${seconds} s`);
    expect(runNo).toBeGreaterThanOrEqual(RUNS);
  }, 600_000);
});
