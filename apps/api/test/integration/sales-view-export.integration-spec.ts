import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CARD_EXPORT_COLUMNS, COIN_EXPORT_COLUMNS } from '@wv/contracts';
import ExcelJS from 'exceljs';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { TransactionRepository } from '../../src/sales-view/transaction.repository.js';
import { streamXlsxExport } from '../../src/sales-view/xlsx-export.runner.js';
import { createAttendant, createManager } from '../factories/fleet.factory.js';
import { insertCard, insertManySales, insertSales, type FixtureSale } from '../factories/sales.factory.js';
import { waitFor } from '../support/mqtt-machine.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../support/test-app.js';

const TZ = 'Africa/Dar_es_Salaam';
const WATER = ['pure', 'fresh', 'cold'] as const;
const HOSTILE = ['=HYPERLINK("http://x","y")', '+1+2', '-3', '@SUM(A1)', '\tTAB', '\rCR'];

/** Downloads an export; the status, headers and, for a 200, the workbook read back with exceljs. */
async function download(t: TestApp, path: string, token?: string) {
  const res = await fetch(`${t.baseUrl}/api${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const bytes = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200) return { res, body: JSON.parse(bytes.toString('utf8')), sheet: undefined, names: [] };
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  const values = (row: ExcelJS.Row) => (row.values as unknown[]).slice(1);
  const sheet = workbook.getWorksheet('Sheet1')!;
  const rows: unknown[][] = [];
  sheet.eachRow((row) => rows.push(values(row)));
  return { res, body: undefined, sheet: rows, names: workbook.worksheets.map((w) => w.name) };
}

/**
 * The streamed table_data.xlsx exports (docs/rest-api.md, "Details"): header row, row counts equal to the listing's
 * total under the same filters and sort, local-time date cells, formula escaping, and scope.
 */
describe('sales views: xlsx exports', () => {
  let t: TestApp;
  let admin: string;
  let manager: Awaited<ReturnType<typeof createManager>>;
  let other: Awaited<ReturnType<typeof createManager>>;
  let attendant: Awaited<ReturnType<typeof createAttendant>>;
  let machine: string;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    manager = await createManager(t.http, admin, 1);
    other = await createManager(t.http, admin, 1);
    attendant = await createAttendant(t.http, manager.token, manager.devices[0]!.espId);
    machine = manager.devices[0]!.espId;
    for (const [i, name] of HOSTILE.entries()) {
      await insertCard(t.dataSource, {
        cardId: `EVIL${i}`,
        espId: machine,
        firstName: name,
        lastName: 'Ok',
        cardType: name,
      });
    }
    await insertCard(t.dataSource, {
      cardId: 'CARDOK',
      espId: machine,
      firstName: 'Neema',
      lastName: 'Mrema',
      cardType: 'student',
    });
    const sales: FixtureSale[] = [];
    const start = Date.parse('2026-01-01T00:00:00Z');
    // 2,600 coin sales cross the export's 1,000-row batches; card sales carry the hostile names.
    for (let i = 0; i < 2600; i++) {
      sales.push({
        espId: machine,
        kind: 'coin',
        price: 100 + (i % 50),
        volume: 1 + (i % 9) * 0.5,
        waterType: WATER[i % 3]!,
        soldAt: new Date(start + i * 1_800_000),
      });
    }
    for (let i = 0; i < 40; i++) {
      const cardId = i < HOSTILE.length ? `EVIL${i}` : i % 2 ? 'CARDOK' : '=cmd|/C calc';
      sales.push({
        espId: machine,
        kind: 'card',
        price: 250,
        volume: 5,
        waterType: 'cold',
        cardId,
        soldAt: new Date(start + i * 3_600_000),
      });
    }
    await insertSales(t.dataSource, sales, TZ);
  });
  afterAll(() => t.close());

  it('streams every coin sale matching the filters as table_data.xlsx with the coin table’s column titles, in the table’s order', async () => {
    const query = 'startDate=2026-01-10&endDate=2026-02-05&sort=price&order=desc';
    const { res, sheet, names } = await download(
      t,
      `/machines/${machine}/coin-transactions.xlsx?${query}`,
      manager.token,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="table_data.xlsx"');
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    expect(names).toEqual(['Sheet1']);
    expect(sheet![0]).toEqual([...COIN_EXPORT_COLUMNS]);
    const listed: any[] = [];
    for (let page = 1; ; page++) {
      const r = await t.http.get(`/machines/${machine}/coin-transactions?${query}&limit=1000&page=${page}`, {
        token: manager.token,
      });
      listed.push(...r.body.data);
      if (r.body.data.length < 1000) break;
    }
    const body = sheet!.slice(1);
    expect(body).toHaveLength(listed.length);
    expect(listed.length).toBeGreaterThan(1000);
    expect(body.map((r) => r[0])).toEqual(listed.map((_, i) => i + 1));
    expect(body.map((r) => [r[1], r[2], r[3]])).toEqual(listed.map((l) => [l.price, l.volume, l.waterType]));
    // Date cells show the local wall time (UTC+3): exceljs reads them back as that time in UTC.
    const shift = (iso: string) => new Date(Date.parse(iso) + 3 * 3_600_000).toISOString();
    expect(body.map((r) => (r[4] as Date).toISOString())).toEqual(listed.map((l) => shift(l.time)));
  });

  it('exports card sales with holder columns and escapes cells a spreadsheet would run as formulas', async () => {
    const { res, sheet } = await download(t, `/machines/${machine}/card-transactions.xlsx?order=asc`, admin);
    expect(res.status).toBe(200);
    expect(sheet![0]).toEqual([...CARD_EXPORT_COLUMNS]);
    const body = sheet!.slice(1);
    expect(body).toHaveLength(40);
    const texts = body.flatMap((r) => r.slice(1, 5)).filter((v): v is string => typeof v === 'string');
    expect(texts.filter((v) => /^[=+\-@\t\r]/.test(v))).toEqual([]);
    for (const [i, name] of HOSTILE.entries()) {
      const row = body.find((r) => r[1] === `EVIL${i}`)!;
      // XML text turns a CR into a line feed when read back; the apostrophe in front is what matters.
      const escaped = `'${name}`.replace('\r', '\n');
      expect(row.slice(2, 5)).toEqual([escaped, escaped, 'Ok']);
    }
    expect(body.find((r) => r[1] === "'=cmd|/C calc")?.slice(2, 5)).toEqual([undefined, undefined, undefined]);
    expect(body.find((r) => r[1] === 'CARDOK')!.slice(2, 9)).toEqual([
      'student',
      'Neema',
      'Mrema',
      250,
      5,
      'cold',
      expect.any(Date),
    ]);
  });

  it('exports an empty range as the header row alone', async () => {
    const { res, sheet } = await download(
      t,
      `/machines/${machine}/coin-transactions.xlsx?startDate=2020-01-01&endDate=2020-01-02`,
      manager.token,
    );
    expect(res.status).toBe(200);
    expect(sheet).toEqual([[...COIN_EXPORT_COLUMNS]]);
  });

  it('answers 404 for another tenant’s machine, 403 to attendants, 401 anonymous and 400 for bad filters, as JSON', async () => {
    for (const kind of ['card', 'coin']) {
      const path = `/machines/${machine}/${kind}-transactions.xlsx`;
      const foreign = await download(t, path, other.token);
      expect(foreign.res.status).toBe(404);
      expect(foreign.body).toMatchObject({ statusCode: 404, code: 'DeviceNotFound' });
      expect((await download(t, path, attendant.token)).res.status).toBe(403);
      expect((await download(t, path)).res.status).toBe(401);
      expect((await download(t, `${path}?limit=10`, manager.token)).res.status).toBe(400);
      expect((await download(t, `${path}?startDate=2026-01-05&endDate=2026-01-01`, manager.token)).res.status).toBe(
        400,
      );
    }
  });

  it('releases the database connection and the export slot of downloads abandoned midway', async () => {
    const big = (await createManager(t.http, admin, 1)).devices[0]!.espId;
    await insertManySales(t.dataSource, big, 60_000, TZ);
    // The export's session: inside its transaction between FETCHes, or running one.
    const exportSessions = async () =>
      (
        await t.dataSource.query(
          `SELECT state, query FROM pg_stat_activity WHERE datname = current_database()
           AND (state LIKE 'idle in transaction%' OR query LIKE 'FETCH % wv_export')`,
        )
      ).length as number;
    for (let i = 0; i < 6; i++) {
      const abort = new AbortController();
      const res = await fetch(`${t.baseUrl}/api/machines/${big}/coin-transactions.xlsx`, {
        headers: { authorization: `Bearer ${admin}` },
        signal: abort.signal,
      });
      await res.body!.getReader().read();
      abort.abort();
    }
    // More abandoned downloads than export slots: a leaked slot or connection would hang these.
    await waitFor(exportSessions, (n) => n === 0);
    const day = 'startDate=2026-01-01&endDate=2026-01-01';
    const { res, sheet } = await download(t, `/machines/${machine}/coin-transactions.xlsx?${day}`, manager.token);
    expect(res.status).toBe(200);
    const listed = await t.http.get(`/machines/${machine}/coin-transactions?${day}`, { token: manager.token });
    expect(sheet!.length).toBe(1 + listed.body.total);
  });

  // The built program exports from a worker thread; tests run the TypeScript sources, where the same
  // writer runs in-thread. This drives the compiled worker (present after `npm run build`) directly.
  const compiledWorker = new URL('../../dist/sales-view/xlsx-export.worker.js', import.meta.url);
  (existsSync(fileURLToPath(compiledWorker)) ? it : it.skip)(
    'writes the same file from the compiled worker thread, with its own connection',
    async () => {
      const repository = t.running.app.get(TransactionRepository);
      const actor = { userId: manager.userId, role: 'manager' as const };
      const filter = { espId: machine, kind: 'card' as const, sort: 'time', order: 'asc' as const };
      const job = {
        kind: 'card' as const,
        statement: repository.exportStatement(actor, filter),
        databaseUrl: t.config.databaseUrl,
      };
      const server = createServer((_req, res) => {
        void streamXlsxExport(job, res as never, () => repository.openExportCursor(actor, filter), compiledWorker);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const port = (server.address() as AddressInfo).port;
        const bytes = Buffer.from(await (await fetch(`http://127.0.0.1:${port}/`)).arrayBuffer());
        const fromWorker = new ExcelJS.Workbook();
        await fromWorker.xlsx.load(bytes as unknown as ArrayBuffer);
        const viaApi = await download(t, `/machines/${machine}/card-transactions.xlsx?order=asc`, manager.token);
        const rows: unknown[][] = [];
        fromWorker.getWorksheet('Sheet1')!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
        expect(rows).toEqual(viaApi.sheet);
        expect(rows).toHaveLength(41);
      } finally {
        server.close();
      }
    },
  );
});
