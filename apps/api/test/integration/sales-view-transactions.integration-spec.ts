import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CARD_TRANSACTION_FIELDS, COIN_TRANSACTION_FIELDS } from '@wv/contracts';
import { createAttendant, createManager } from '../factories/fleet.factory.js';
import { insertCard, insertSales, type FixtureSale } from '../factories/sales.factory.js';
import { DataSource } from 'typeorm';
import { GenericPlanPool } from '../../src/sales-view/scoped-sql.js';
import { TransactionRepository } from '../../src/sales-view/transaction.repository.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../support/test-app.js';

type Row = Record<string, any>;
const TZ = 'Africa/Dar_es_Salaam';
const DAY_MS = 86_400_000;
const WATER = ['pure', 'fresh', 'cold'] as const;

/** PostgreSQL's order: ASC puts NULLs last, DESC first; ties broken by id in the same direction. */
function expectedOrder(rows: Row[], field: string, order: 'asc' | 'desc'): string[] {
  const key = (r: Row) => (field === 'time' ? Date.parse(r.time) : field === 'id' ? Number(r.id) : r[field]);
  const cmp = (a: Row, b: Row) => {
    const [x, y] = [key(a), key(b)];
    if (x === y) return Number(a.id) - Number(b.id);
    if (x === null) return 1;
    if (y === null) return -1;
    return x < y ? -1 : 1;
  };
  const sorted = [...rows].sort(cmp).map((r) => r.id);
  return order === 'asc' ? sorted : sorted.reverse();
}

/**
 * Transaction pages (docs/rest-api.md, "Endpoints"): paging, every sort field both ways with ties, inclusive
 * local-day filters, totals, card details by scope, and 403/404 for callers outside the machine.
 */
describe('sales views: card and coin transaction pages', () => {
  let t: TestApp;
  let admin: string;
  let managerA: Awaited<ReturnType<typeof createManager>>;
  let managerB: Awaited<ReturnType<typeof createManager>>;
  let attendant: Awaited<ReturnType<typeof createAttendant>>;
  let machine: string;
  const base = Date.parse('2026-03-10T09:00:00Z');

  const get = (path: string, token = managerA.token) => t.http.get(path, { token });
  /** Every row of a listing, through the API, one page at a time. */
  async function all(kind: 'card' | 'coin', query = '') {
    const rows: Row[] = [];
    for (let page = 1; ; page++) {
      const res = await get(`/machines/${machine}/${kind}-transactions?limit=100&page=${page}${query}`);
      expect(res.status).toBe(200);
      rows.push(...res.body.data);
      if (res.body.data.length < 100) return { rows, total: res.body.total as number };
    }
  }

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    managerA = await createManager(t.http, admin, 1);
    managerB = await createManager(t.http, admin, 1);
    attendant = await createAttendant(t.http, managerA.token, managerA.devices[0]!.espId);
    machine = managerA.devices[0]!.espId;
    await insertCard(t.dataSource, {
      cardId: 'CARDA',
      espId: machine,
      firstName: 'Amina',
      lastName: 'Juma',
      cardType: 'student',
    });
    await insertCard(t.dataSource, {
      cardId: 'CARDB',
      espId: machine,
      firstName: 'Baraka',
      lastName: 'Mushi',
      cardType: 'family',
    });
    // Registered at another tenant's machine: its holder is not managerA's to see.
    const foreign = managerB.devices[0]!.espId;
    await insertCard(t.dataSource, {
      cardId: 'CARDF',
      espId: foreign,
      firstName: 'Faraji',
      lastName: 'Kweka',
      cardType: 'staff',
    });
    const sales: FixtureSale[] = [];
    // 57 coin and 43 card sales over 9 local days, with repeated times, prices and volumes (ties).
    for (let i = 0; i < 100; i++) {
      const kind = i % 7 < 4 ? 'coin' : 'card';
      const soldAt = new Date(base + Math.floor(i / 11) * DAY_MS + (i % 5) * 3_600_000 + (i % 3 === 0 ? 0 : i * 1000));
      sales.push({
        espId: machine,
        kind,
        price: [500, 250, 1000, 250.5][i % 4]!,
        volume: [10, 5, 20, 5.25, 10][i % 5]!,
        waterType: WATER[i % 3]!,
        cardId: kind === 'card' ? (['CARDA', 'CARDB', 'CARDF', 'GHOST'] as const)[i % 4] : null,
        flag: kind === 'card' && i % 4 === 3 ? 'unknown_card' : null,
        soldAt,
      });
    }
    // A sale of the other tenant's machine on the same days: never in machine's lists.
    sales.push({ espId: foreign, kind: 'coin', price: 1, volume: 1, waterType: 'pure', soldAt: new Date(base) });
    await insertSales(t.dataSource, sales, TZ);
  });
  afterAll(() => t.close());

  it('lists every coin and card sale once, with totals from the rollups equal to the row counts', async () => {
    const coin = await all('coin');
    const card = await all('card');
    const [{ coins, cards }] = await t.dataSource.query(
      `SELECT count(*) FILTER (WHERE kind = 'coin')::int AS coins, count(*) FILTER (WHERE kind = 'card')::int AS cards
       FROM sales WHERE esp_id = $1`,
      [machine],
    );
    expect([coin.total, card.total]).toEqual([coins, cards]);
    expect(coin.rows).toHaveLength(coins);
    expect(new Set(card.rows.map((r) => r.id)).size).toBe(cards);
    expect(Object.keys(coin.rows[0]!).sort()).toEqual(['dispensed', 'id', 'price', 'time', 'volume', 'waterType']);
    expect(typeof coin.rows[0]!.price).toBe('number');
    expect(typeof coin.rows[0]!.volume).toBe('number');
  });

  it('joins card type and holder names, null for unknown cards and for cards of other tenants, and carries flag', async () => {
    const byCard = (rows: Row[], id: string) => rows.find((r) => r.cardId === id)!;
    const { rows } = await all('card');
    expect(byCard(rows, 'CARDA')).toMatchObject({
      cardType: 'student',
      cardholderFirstName: 'Amina',
      cardholderLastName: 'Juma',
      flag: null,
    });
    expect(byCard(rows, 'GHOST')).toMatchObject({
      cardType: null,
      cardholderFirstName: null,
      cardholderLastName: null,
      flag: 'unknown_card',
    });
    expect(byCard(rows, 'CARDF')).toMatchObject({ cardType: null, cardholderFirstName: null });
    const asAdmin = await get(`/machines/${machine}/card-transactions?limit=1000`, admin);
    expect(byCard(asAdmin.body.data, 'CARDF')).toMatchObject({ cardType: 'staff', cardholderFirstName: 'Faraji' });
  });

  // A page sorted by another column than time runs its generic plan when the machine has few rows to sort, and a
  // plan for its own parameters when it has many (docs/partitions.md): both answer the same.
  it.each([
    ['coin', 'generic', COIN_TRANSACTION_FIELDS],
    ['card', 'generic', CARD_TRANSACTION_FIELDS],
    ['coin', 'per-call', COIN_TRANSACTION_FIELDS],
    ['card', 'per-call', CARD_TRANSACTION_FIELDS],
  ] as const)(
    'sorts %s pages by every field ascending and descending, ties broken by id (%s plans)',
    async (kind, plans, fields) => {
      const repository = t.running.app.get(TransactionRepository, { strict: false });
      const threshold = repository.genericSortRows;
      expect(threshold).toBeGreaterThan(100); // this machine's 100 sales are few
      if (plans === 'per-call') repository.genericSortRows = 0;
      try {
        await expectSortedEveryWay(kind, fields);
        // Every row's every field as in time order (whose card details the test above checks), holders of
        // other tenants' cards unnamed included.
        const byId = (rows: Row[]) => [...rows].sort((a, b) => Number(a.id) - Number(b.id));
        const [byTime, byPrice] = [await all(kind), await all(kind, '&sort=price')];
        expect(byId(byPrice.rows)).toEqual(byId(byTime.rows));
      } finally {
        repository.genericSortRows = threshold;
      }
    },
  );

  async function expectSortedEveryWay(kind: 'card' | 'coin', fields: readonly string[]) {
    const { rows } = await all(kind);
    for (const field of fields) {
      for (const order of ['asc', 'desc'] as const) {
        const ids: string[] = [];
        for (let page = 1; page <= Math.ceil(rows.length / 10); page++) {
          const res = await get(`/machines/${machine}/${kind}-transactions?page=${page}&sort=${field}&order=${order}`);
          expect(res.status).toBe(200);
          ids.push(...res.body.data.map((r: Row) => r.id));
        }
        expect({ field, order, ids }).toEqual({ field, order, ids: expectedOrder(rows, field, order) });
      }
    }
  }

  it('defaults to time descending and serves the last page, a short page and a page past the end', async () => {
    const { rows, total } = await all('coin');
    const newestFirst = expectedOrder(rows, 'time', 'desc');
    const first = await get(`/machines/${machine}/coin-transactions`);
    expect(first.body.data.map((r: Row) => r.id)).toEqual(newestFirst.slice(0, 10));
    const lastPage = Math.ceil(total / 25);
    const last = await get(`/machines/${machine}/coin-transactions?limit=25&page=${lastPage}`);
    expect(last.body.data.map((r: Row) => r.id)).toEqual(newestFirst.slice((lastPage - 1) * 25));
    expect(last.body.data.length).toBe(total - (lastPage - 1) * 25);
    const past = await get(`/machines/${machine}/coin-transactions?limit=25&page=${lastPage + 1}`);
    expect(past.body).toEqual({ data: [], total });
    const far = await get(`/machines/${machine}/coin-transactions?page=100000&order=asc`);
    expect(far.body).toEqual({ data: [], total });
  });

  it('filters by inclusive local days, a day starting at 21:00Z the evening before (UTC+3)', async () => {
    const { rows } = await all('coin');
    const localDay = (iso: string) => new Date(Date.parse(iso) + 3 * 3_600_000).toISOString().slice(0, 10);
    const days = [...new Set(rows.map((r) => localDay(r.time)))].sort();
    const [from, to] = [days[2]!, days[4]!];
    const inRange = rows.filter((r) => localDay(r.time) >= from && localDay(r.time) <= to);
    for (const order of ['desc', 'asc'] as const) {
      const filtered = await all('coin', `&startDate=${from}&endDate=${to}&order=${order}`);
      expect(filtered.total).toBe(inRange.length);
      expect(filtered.rows.map((r) => r.id)).toEqual(expectedOrder(inRange, 'time', order));
    }
    const onlyStart = await all('coin', `&startDate=${days.at(-1)}`);
    expect(onlyStart.total).toBe(rows.filter((r) => localDay(r.time) === days.at(-1)).length);
    const onlyEnd = await all('coin', `&endDate=${days[0]}&sort=price`);
    expect(onlyEnd.total).toBe(rows.filter((r) => localDay(r.time) === days[0]).length);
    const empty = await get(`/machines/${machine}/coin-transactions?startDate=2020-01-01&endDate=2020-01-31`);
    expect(empty.body).toEqual({ data: [], total: 0 });
  });

  it('seeks deep time-sorted pages across day boundaries identically to a full sort, at every page size', async () => {
    const { rows } = await all('card');
    for (const order of ['desc', 'asc'] as const) {
      const expected = expectedOrder(rows, 'time', order);
      for (const limit of [10, 25]) {
        for (let page = 1; (page - 1) * limit < rows.length; page++) {
          const res = await get(`/machines/${machine}/card-transactions?limit=${limit}&page=${page}&order=${order}`);
          expect(res.body.data.map((r: Row) => r.id)).toEqual(expected.slice((page - 1) * limit, page * limit));
        }
      }
    }
  });

  it("plans pages generically on sessions of their own, which keep the shared pool's settings", async () => {
    const setting =
      "SELECT current_setting('plan_cache_mode') AS mode, current_setting('transaction_read_only') AS ro, " +
      "current_setting('max_parallel_workers_per_gather') AS parallel";
    // A read pool's sessions are read-only (docs/read-replica.md): the generic sessions beside it must be too.
    const url = (t.dataSource.options as { url: string }).url;
    const reader = new DataSource({ type: 'postgres', url, extra: { options: '-c default_transaction_read_only=on' } });
    await reader.initialize();
    const generic = [new GenericPlanPool(t.dataSource), new GenericPlanPool(reader)];
    try {
      // Without parallel workers: a generic plan cannot tell a small page from a large one.
      expect(await generic[0]!.query([setting, []])).toEqual([
        { mode: 'force_generic_plan', ro: 'off', parallel: '0' },
      ]);
      expect(await generic[1]!.query([setting, []])).toEqual([{ mode: 'force_generic_plan', ro: 'on', parallel: '0' }]);
      // The shared pools plan as before.
      expect(await t.dataSource.query(setting)).toEqual([expect.objectContaining({ mode: 'auto', ro: 'off' })]);
      expect(await reader.query(setting)).toEqual([expect.objectContaining({ mode: 'auto', ro: 'on' })]);
    } finally {
      await Promise.all(generic.map((pool) => pool.close()));
      await reader.destroy();
    }
    // The page itself answers as every other sort does (the tests above): one more call through the API.
    expect((await get(`/machines/${machine}/coin-transactions?sort=time&order=asc`)).status).toBe(200);
  });

  it('answers 404 to the manager of another tenant and for unknown machines, 403 to attendants, 401 anonymous', async () => {
    const repository = t.running.app.get(TransactionRepository, { strict: false });
    const threshold = repository.genericSortRows;
    for (const kind of ['card', 'coin']) {
      const path = `/machines/${machine}/${kind}-transactions`;
      expect((await get(path, managerB.token)).status).toBe(404);
      // Sorted by price, through the generic plan and through the plan for the call (the machine counted first).
      for (const rows of [threshold, 0]) {
        repository.genericSortRows = rows;
        try {
          const res = await get(`${path}?sort=price`, managerB.token);
          expect({ rows, status: res.status, body: res.body.data }).toEqual({ rows, status: 404, body: undefined });
        } finally {
          repository.genericSortRows = threshold;
        }
      }
      expect((await get(`/machines/NO-SUCH-MACHINE/${kind}-transactions`, admin)).status).toBe(404);
      expect((await get(path, attendant.token)).status).toBe(403);
      expect((await t.http.get(path)).status).toBe(401);
      expect((await get(path, admin)).status).toBe(200);
    }
  });

  it('refuses bad paging, sorting and dates with 400 naming the field', async () => {
    const bad: [string, string][] = [
      ['limit=7', 'limit'],
      ['page=0', 'page'],
      ['sort=cardId', 'sort'],
      ['order=up', 'order'],
      ['startDate=2026-02-30', 'startDate'],
      ['startDate=2026-03-05&endDate=2026-03-01', 'endDate'],
      ['role=admin', 'role'],
    ];
    for (const [query, field] of bad) {
      const res = await get(`/machines/${machine}/coin-transactions?${query}`);
      expect({ query, status: res.status }).toEqual({ query, status: 400 });
      expect(JSON.stringify(res.body)).toContain(field);
    }
  });
});
