import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { createAttendant, createManager } from '../../factories/fleet.factory.js';
import { cardFields, fundAttendant, ledgerViolations, registerCard } from '../../factories/money.factory.js';
import { waitFor } from '../../support/mqtt-machine.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../../support/test-app.js';

type Manager = Awaited<ReturnType<typeof createManager>>;
type Attendant = Awaited<ReturnType<typeof createAttendant>>;

/** The largest amount a balance column (numeric(14,2)) holds. */
const MAX_MONEY = 999_999_999_999.99;

/**
 * The attacker is a signed-in manager or attendant sending hostile values where the API expects
 * money or dates: values that JavaScript would coerce into numbers, dates PostgreSQL cannot hold, and
 * amounts that overflow the balance columns. Each must be refused with a 4xx and move nothing.
 */
describe('roles: hostile money and date input', () => {
  let t: TestApp;
  let admin: string;
  let manager: Manager;

  const floatOf = async (a: Attendant) =>
    (await t.http.get('/attendant/float-balance', { token: a.token })).body.balance as number;
  const cardBalance = async (cardId: string) =>
    (await t.dataSource.query(`SELECT balance::text AS b FROM cards WHERE card_id = $1`, [cardId]))[0].b as string;

  let spareDevice = 0;
  /** An attendant on a machine of their own (one attendant per machine). */
  const freshAttendant = async () => {
    const device = manager.devices[spareDevice++];
    if (!device) throw new Error('the test needs more machines');
    return createAttendant(t.http, manager.token, device.espId);
  };

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    manager = await createManager(t.http, admin, 6);
  });
  afterAll(async () => {
    expect(await ledgerViolations(t.dataSource)).toEqual([]);
    await t.close();
  });

  describe('dates', () => {
    it('a date in year 0000 is refused with 400 naming the parameter, on every endpoint that takes a date', async () => {
      const espId = manager.devices[0]!.espId;
      const probes: [string, string, string][] = [
        [manager.token, '/user/machines/daily-summary?date=0000-01-01', 'date'],
        [manager.token, '/user/machines/monthly-summary?date=0000-01-01', 'date'],
        [manager.token, `/machines/${espId}/card-transactions?startDate=0000-01-01`, 'startDate'],
        [manager.token, `/machines/${espId}/coin-transactions?startDate=0000-01-01&endDate=0000-12-31`, 'startDate'],
        [manager.token, `/machines/${espId}/card-transactions.xlsx?startDate=0000-01-01`, 'startDate'],
        [manager.token, `/machines/${espId}/coin-transactions.xlsx?startDate=0000-02-29`, 'startDate'],
        [admin, '/admin/audit?from=0000-01-01', 'from'],
        [admin, '/admin/audit?to=0000-01-01', 'to'],
        [admin, '/admin/audit?from=0000-01-01T00:00:00Z', 'from'],
        [admin, '/admin/audit?to=0000-06-01T12:00:00%2B03:00', 'to'],
      ];
      for (const [token, path, field] of probes) {
        const res = await t.http.get(path, { token });
        expect({ path, status: res.status }).toEqual({ path, status: 400 });
        expect(res.body).toMatchObject({ statusCode: 400, code: 'ValidationFailed' });
        expect(res.body.fields.map((f: { path: string }) => f.path)).toContain(field);
      }
    });

    it('the far ends of the accepted range are answered, never with a 5xx', async () => {
      const espId = manager.devices[0]!.espId;
      for (const path of [
        '/user/machines/daily-summary?date=9999-12-31',
        '/user/machines/monthly-summary?date=9999-12-31',
        `/machines/${espId}/card-transactions?startDate=2000-01-01&endDate=9999-12-31`,
        `/machines/${espId}/coin-transactions?endDate=9999-12-31`,
      ]) {
        const res = await t.http.get(path, { token: manager.token });
        expect({ path, status: res.status }).toEqual({ path, status: 200 });
      }
      const audit = await t.http.get('/admin/audit?from=2000-01-01&to=9999-12-31T23:59:59Z', { token: admin });
      expect(audit.status).toBe(200);
    });
  });

  describe('amounts that overflow a balance', () => {
    it('approving float that would take the attendant’s balance past the largest amount answers 422 and changes nothing', async () => {
      const attendant = await freshAttendant();
      await fundAttendant(t.http, manager.token, attendant, MAX_MONEY);
      expect(await floatOf(attendant)).toBe(MAX_MONEY);
      const asked = await t.http.post('/attendant/request-float', { amount: 0.01 }, { token: attendant.token });
      expect(asked.status).toBe(201);
      const assigned = await t.http.post(
        '/manager/assign-float',
        { attendantId: attendant.userId, amount: 0.01 },
        { token: manager.token },
      );
      expect(assigned.status).toBe(422);
      expect(assigned.body).toMatchObject({ statusCode: 422, code: 'BalanceLimitExceeded' });
      expect(await floatOf(attendant)).toBe(MAX_MONEY);
      // The request stays pending: nothing of the refused approval was kept.
      const pending = await t.http.get('/manager/float-requests', { token: manager.token });
      expect(pending.body.map((r: { attendantId: string }) => r.attendantId)).toContain(attendant.userId);
      // The same refusal with an Idempotency-Key, and its replay.
      const headers = { 'idempotency-key': randomUUID() };
      const body = { attendantId: attendant.userId, amount: 0.01 };
      const keyed = await t.http.post('/manager/assign-float', body, { token: manager.token, headers });
      const replay = await t.http.post('/manager/assign-float', body, { token: manager.token, headers });
      expect([keyed.status, replay.status]).toEqual([422, 422]);
      expect(replay.body).toEqual(keyed.body);
    });

    it('a top-up that would take a card past the largest balance answers 422 and spends no float', async () => {
      const attendant = await freshAttendant();
      await fundAttendant(t.http, manager.token, attendant, MAX_MONEY);
      const card = await registerCard(t.http, attendant.token, { card_balance: MAX_MONEY });
      await fundAttendant(t.http, manager.token, attendant, 1);
      const topUp = await t.http.post(`/att/cards/${card.card_id}/top-up`, { amount: 1 }, { token: attendant.token });
      expect(topUp.status).toBe(422);
      expect(topUp.body).toMatchObject({ statusCode: 422, code: 'BalanceLimitExceeded' });
      expect(await floatOf(attendant)).toBe(1);
      expect(await cardBalance(card.card_id)).toBe('999999999999.99');
    });

    it('an amount larger than a balance can hold is refused with 400 on every money field', async () => {
      const attendant = await freshAttendant();
      const tooLarge = 1_000_000_000_000;
      const answers = [
        await t.http.post('/attendant/request-float', { amount: tooLarge }, { token: attendant.token }),
        await t.http.post(
          '/manager/assign-float',
          { attendantId: attendant.userId, amount: tooLarge },
          { token: manager.token },
        ),
        await t.http.post('/att/add/user/card', cardFields({ card_balance: tooLarge }), { token: attendant.token }),
        await t.http.post(`/att/cards/NOPE/top-up`, { amount: tooLarge }, { token: attendant.token }),
      ];
      expect(answers.map((a) => a.status)).toEqual([400, 400, 400, 400]);
      const ok = await t.http.post('/attendant/request-float', { amount: MAX_MONEY }, { token: attendant.token });
      expect(ok.status).toBe(201);
    });
  });

  describe('values that are not JSON numbers with at most 2 decimals', () => {
    const HOSTILE: unknown[] = [true, [2], '0x3', '0b100', '1e3', '+7', '12.50', '7', 1.001, 1e-7, null, {}, '', ' 5 '];

    it('a top-up of true, [2], "0x3" or "0b100" is refused and moves nothing (it once moved 1, 2, 3 and 4)', async () => {
      const attendant = await freshAttendant();
      await fundAttendant(t.http, manager.token, attendant, 100);
      const card = await registerCard(t.http, attendant.token, { card_balance: 10 });
      for (const amount of [true, [2], '0x3', '0b100']) {
        const res = await t.http.post(`/att/cards/${card.card_id}/top-up`, { amount }, { token: attendant.token });
        expect({ amount, status: res.status }).toEqual({ amount, status: 400 });
        expect(res.body.fields.map((f: { path: string }) => f.path)).toEqual(['amount']);
      }
      expect(await cardBalance(card.card_id)).toBe('10.00');
      expect(await floatOf(attendant)).toBe(90);
    });

    it('every money field refuses booleans, arrays, objects, null, numeric strings and a third decimal', async () => {
      const attendant = await freshAttendant();
      await fundAttendant(t.http, manager.token, attendant, 100);
      const card = await registerCard(t.http, attendant.token, { card_balance: 10 });
      await t.http.post('/attendant/request-float', { amount: 1 }, { token: attendant.token });
      const calls: [string, (v: unknown) => Promise<{ status: number; body: any }>][] = [
        [
          'card_balance',
          (v) => t.http.post('/att/add/user/card', cardFields({ card_balance: v }), { token: attendant.token }),
        ],
        ['amount', (v) => t.http.post(`/att/cards/${card.card_id}/top-up`, { amount: v }, { token: attendant.token })],
        ['amount', (v) => t.http.post('/attendant/request-float', { amount: v }, { token: attendant.token })],
        [
          'amount',
          (v) =>
            t.http.post(
              '/manager/assign-float',
              { attendantId: attendant.userId, amount: v },
              { token: manager.token },
            ),
        ],
      ];
      for (const [field, call] of calls) {
        for (const value of HOSTILE) {
          const res = await call(value);
          expect({ field, value, status: res.status }).toEqual({ field, value, status: 400 });
          expect(res.body.fields.map((f: { path: string }) => f.path)).toContain(field);
        }
      }
      expect(await cardBalance(card.card_id)).toBe('10.00');
      expect(await floatOf(attendant)).toBe(90);
      const requests = await t.http.get('/attendant/float-requests', { token: attendant.token });
      expect(requests.body.filter((r: { status: string }) => r.status === 'pending')).toHaveLength(1);
    });

    it('JSON numbers with up to 2 decimals, however they are written, are accepted', async () => {
      const attendant = await freshAttendant();
      const raw = (amount: string) =>
        t.http.request('POST', '/attendant/request-float', {
          token: attendant.token,
          rawBody: `{"amount": ${amount}}`,
        });
      for (const amount of ['12.50', '12.5', '1e3', '0.1', '7']) {
        expect({ amount, status: (await raw(amount)).status }).toEqual({ amount, status: 201 });
      }
      const requested = (await t.http.get('/attendant/float-requests', { token: attendant.token })).body.map(
        (r: { requestedAmount: number }) => r.requestedAmount,
      );
      expect([...requested].sort((a: number, b: number) => a - b)).toEqual([0.1, 7, 12.5, 12.5, 1000]);
    });

    it('tariffs and calibrations take numbers or plain decimal strings: 2 decimals for tariffs, 3 for calibrations', async () => {
      const espId = manager.devices[0]!.espId;
      const good = { espId, coldTariffs: '12.50', freshTariffs: 30, coldCalb: '1.125', freshCalb: 0.875 };
      expect((await t.http.post('/insert_tariffs', good, { token: manager.token })).status).toBe(201);
      const bad: [string, unknown][] = [
        ['coldTariffs', '0x3'],
        ['coldTariffs', '1e3'],
        ['coldTariffs', '+7'],
        ['coldTariffs', '-1'],
        ['coldTariffs', '12.345'],
        ['freshTariffs', 12.345],
        ['freshTariffs', true],
        ['freshTariffs', [2]],
        ['coldCalb', '1.2345'],
        ['coldCalb', '0b100'],
        ['freshCalb', 0.0001],
        ['freshCalb', 'Infinity'],
      ];
      for (const [field, value] of bad) {
        const res = await t.http.post('/insert_tariffs', { ...good, [field]: value }, { token: manager.token });
        expect({ field, value, status: res.status }).toEqual({ field, value, status: 400 });
        expect(res.body.fields.map((f: { path: string }) => f.path)).toContain(field);
      }
      const settings = await t.http.get(`/machine_settings/${espId}`, { token: manager.token });
      expect(settings.body).toEqual({ cold_tariffs: 12.5, fresh_tariffs: 30, cold_calb: 1.125, fresh_calb: 0.875 });
    });

    it('a machine’s sale price is a JSON number with at most 2 decimals and its volume at most 3', async () => {
      const device = manager.devices[0]!;
      const sale = (overrides: Record<string, unknown>) => ({
        eventId: randomUUID(),
        kind: 'coin',
        price: 10,
        volume: 1.5,
        waterType: 'pure',
        ...overrides,
      });
      const items = [
        sale({ price: '12.50' }),
        sale({ price: true }),
        sale({ price: '0x3' }),
        sale({ price: 1.001 }),
        sale({ volume: '1.5' }),
        sale({ volume: 1.0001 }),
        sale({ price: 999_999_999.99, volume: 1.125 }),
      ];
      const res = await t.http.post(`/machines/${device.espId}/sales`, items, {
        headers: { 'x-device-key': device.deviceKey },
      });
      expect(res.status).toBe(202);
      expect(res.body.accepted).toBe(1);
      expect(res.body.rejected.map((r: { index: number }) => r.index)).toEqual([0, 1, 2, 3, 4, 5]);
      await waitFor(
        () =>
          t.dataSource.query(`SELECT price::text, volume::text FROM sales WHERE event_id = $1`, [items[6]!.eventId]),
        (rows) => rows.length === 1,
      ).then((rows) => expect(rows[0]).toEqual({ price: '999999999.99', volume: '1.125' }));
    });
  });
});
