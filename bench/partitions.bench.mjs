// npm run bench -- partitions
// The sales table partitioned by month (docs/partitions.md) against the same rows unpartitioned, in the
// same run. Two databases: one seeded with the schema before the partitioning migration
// (scripts/seed-bench.mjs: BENCH_ROWS sales, default 10 million, of 1,000 machines over the last
// BENCH_DAYS days, default 304, so about 1 million a month; the hot machine holds a fifth of them), and a
// copy of it converted by the real migrations (timed). On both, the statements the API runs, built by
// apps/api's own TransactionRepository: transaction pages (first, deep, last, a date range, another
// sort) and exports (through the export's server-side cursor). Then the month partition holding the
// most rows is detached and dropped (timed), beside the DELETE of the same month on the unpartitioned
// table (rolled back, so the seeded database stays as it is).
// Targets: pages and exports no worse partitioned than unpartitioned (p50 within 10 % or 1 ms);
// dropping a month of ~1 million sales under a second.
import { cpus, loadavg } from 'node:os';
import pg from 'pg';
import { measure, summarize } from './lib/measure.mjs';
import { report } from './lib/report.mjs';

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000_000);
const DAYS = Number(process.env.BENCH_DAYS ?? 304);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 100);
const EXPORT_ITERATIONS = Number(process.env.BENCH_EXPORT_ITERATIONS ?? 5);
const TZ = process.env.APP_TIMEZONE ?? 'Africa/Dar_es_Salaam';
// seed-bench reads its sizes when imported.
process.env.BENCH_SALES = String(ROWS);
process.env.BENCH_DAYS = String(DAYS);
process.env.BENCH_MACHINES = '1000';
const { seedBench, HOT_MACHINE } = await import('../scripts/seed-bench.mjs');
const { migrations } = await import('../apps/api/dist/database/migrations/index.js');
const { dataSourceOptions } = await import('../apps/api/dist/database/data-source-options.js');
const { TransactionRepository } = await import('../apps/api/dist/sales-view/transaction.repository.js');
const { openSqlCursor } = await import('../apps/api/dist/sales-view/export-cursor.repository.js');
const { DataSource } = await import('typeorm');

const SERVER = process.env.BENCH_PG_URL ?? 'postgres://postgres@localhost:5432/postgres';
const dbUrl = (name) => {
  const url = new URL(SERVER);
  url.pathname = `/${name}`;
  return url.toString();
};
const PLAIN = `water_vending_bench_plain_${ROWS}`;
const PARTITIONED = `water_vending_bench_partitioned_${ROWS}`;
// A machine of the manager below (manager0 owns BENCH-0000 to BENCH-0099).
const TYPICAL = 'BENCH-0050';
const log = (msg) => console.log(`[partitions ${new Date().toISOString().slice(11, 19)}] ${msg}`);

async function admin(work) {
  const c = new pg.Client({ connectionString: SERVER });
  await c.connect();
  try {
    return await work(c);
  } finally {
    await c.end();
  }
}

// 1. The unpartitioned schema, seeded (kept between runs: seeding is idempotent).
const partitioning = migrations.findIndex((m) => m.name === 'SalesPartitions1763710900000');
if (partitioning < 0) throw new Error('apps/api has no SalesPartitions1763710900000 migration: run npm run build');
await seedBench(dbUrl(PLAIN), { upTo: partitioning });

// 2. A copy converted by the real migrations (made again every run: the drop below changes it).
await admin(async (c) => {
  await c.query(`DROP DATABASE IF EXISTS ${PARTITIONED} WITH (FORCE)`);
  await c.query(`CREATE DATABASE ${PARTITIONED} TEMPLATE ${PLAIN}`);
});
log(`copied ${PLAIN} to ${PARTITIONED}; migrating`);
const migration = await (async () => {
  const ds = new DataSource(dataSourceOptions(dbUrl(PARTITIONED)));
  await ds.initialize();
  const started = performance.now();
  await ds.runMigrations({ transaction: 'each' });
  const seconds = (performance.now() - started) / 1000;
  // The migration analyses; the visibility map (index-only scans) comes with the first vacuum, which
  // autovacuum does after a bulk insert (docs/partitions.md, "The migration").
  const vacuumStarted = performance.now();
  await ds.query(`VACUUM ANALYZE sales`);
  await ds.query(`VACUUM ANALYZE sale_keys`);
  const vacuumSeconds = (performance.now() - vacuumStarted) / 1000;
  await ds.destroy();
  return { seconds: Math.round(seconds * 10) / 10, vacuumSeconds: Math.round(vacuumSeconds * 10) / 10 };
})();
log(`migration ${migration.seconds} s, vacuum ${migration.vacuumSeconds} s`);

/** The API's repository on one database, as its manager of the hot machine sees it. */
async function open(name) {
  const ds = new DataSource({ type: 'postgres', url: dbUrl(name), extra: { max: 2 } });
  await ds.initialize();
  const [{ id }] = await ds.query(`SELECT id FROM users WHERE email = 'manager0@bench.local'`);
  const repo = new TransactionRepository(ds, { timezone: TZ });
  const actor = { userId: id, role: 'manager' };
  const client = new pg.Client({ connectionString: dbUrl(name) });
  await client.connect();
  return { name, ds, repo, actor, client };
}

const plain = await open(PLAIN);
const partitioned = await open(PARTITIONED);
const figures = {};
const verdicts = [];
try {
  const totals = {};
  for (const [espId, kind] of [
    [HOT_MACHINE, 'card'],
    [TYPICAL, 'coin'],
  ]) {
    const page = await plain.repo.page(plain.actor, { espId, kind, sort: 'time', order: 'desc' }, 0, 10);
    totals[`${espId}/${kind}`] = page.total;
  }
  const hotTotal = totals[`${HOT_MACHINE}/card`];
  const typicalTotal = totals[`${TYPICAL}/coin`];
  const lastOffset = (total, limit) => Math.max(0, (Math.ceil(total / limit) - 1) * limit);
  const month = new Date();
  month.setUTCMonth(month.getUTCMonth() - 2);
  const rangeStart = `${month.toISOString().slice(0, 7)}-01`;
  const rangeEnd = `${month.toISOString().slice(0, 7)}-28`;

  const hot = { espId: HOT_MACHINE, kind: 'card', sort: 'time', order: 'desc' };
  const typical = { espId: TYPICAL, kind: 'coin', sort: 'time', order: 'desc' };
  const pages = [
    [`page 1 (limit 10), hot machine (${hotTotal} card sales)`, hot, 0, 10],
    [`middle page (limit 10), hot machine`, hot, Math.floor(hotTotal / 20) * 10, 10],
    [`last page (limit 10), hot machine`, hot, lastOffset(hotTotal, 10), 10],
    [`last page ascending (limit 10), hot machine`, { ...hot, order: 'asc' }, lastOffset(hotTotal, 10), 10],
    [`page 1 (limit 1000), hot machine`, hot, 0, 1000],
    [`deep page in a month range, hot machine`, { ...hot, startDate: rangeStart, endDate: rangeEnd }, 5000, 10],
    [`page 1 (limit 10), typical machine (${typicalTotal} coin sales)`, typical, 0, 10],
    [`last page (limit 10), typical machine`, typical, lastOffset(typicalTotal, 10), 10],
    [
      `last page sorted by price, typical machine`,
      { ...typical, sort: 'price', order: 'asc' },
      lastOffset(typicalTotal, 10),
      10,
    ],
    [`middle page sorted by id, typical machine`, { ...typical, sort: 'id' }, Math.floor(typicalTotal / 20) * 10, 10],
    [
      `page 2 of card sales sorted by holder name, typical machine`,
      { ...typical, kind: 'card', sort: 'cardholderLastName', order: 'asc' },
      10,
      10,
    ],
    [
      `middle page sorted by price, hot machine`,
      { ...hot, sort: 'price', order: 'asc' },
      Math.floor(hotTotal / 20) * 10,
      10,
      EXPORT_ITERATIONS,
    ],
  ];
  const exports = [
    // As many runs as a page: at 20 to 30 ms each they are cheap, and fewer left its p50 to chance.
    [`export, typical machine (${typicalTotal} rows)`, typical, ITERATIONS],
    [`export, hot machine one month`, { ...hot, startDate: rangeStart, endDate: rangeEnd }, EXPORT_ITERATIONS * 2],
    [`export, hot machine (${hotTotal} rows)`, hot, EXPORT_ITERATIONS],
  ];

  /** Every row of an export through the export's own cursor, as its worker thread reads it. */
  const runExport = async (db, filter) => {
    const cursor = await openSqlCursor(
      (sql, params) => db.client.query(sql, params).then((r) => r.rows),
      db.repo.exportStatement(db.actor, filter),
    );
    let rows = 0;
    try {
      for (;;) {
        const batch = await cursor.next(5000);
        rows += batch.length;
        if (batch.length < 5000) break;
      }
    } finally {
      await cursor.close();
    }
    return rows;
  };

  const compare = async (name, run, iterations) => {
    // The same answer from both, then timed one database after the other.
    const [a, b] = [await run(plain), await run(partitioned)];
    if (JSON.stringify(a) !== JSON.stringify(b)) throw new Error(`${name}: the two databases answer differently`);
    // Interleaved, one run on each in turn, so that both see the same load on the machine.
    const warmup = Math.max(1, Math.round(iterations / 10));
    const times = { [plain.name]: [], [partitioned.name]: [] };
    await measure(
      async () => {
        for (const db of [plain, partitioned]) {
          const t0 = performance.now();
          await run(db);
          times[db.name].push(performance.now() - t0);
        }
      },
      { iterations: iterations + warmup, warmup: 0 },
    );
    const p = summarize(times[plain.name].slice(warmup));
    const q = summarize(times[partitioned.name].slice(warmup));
    figures[name] = { unpartitionedP50: p.p50, partitionedP50: q.p50, unpartitionedP95: p.p95, partitionedP95: q.p95 };
    const ok = q.p50 <= Math.max(p.p50 * 1.1, p.p50 + 1);
    verdicts.push([name, ok]);
    log(`${name}: unpartitioned p50 ${p.p50} ms, partitioned p50 ${q.p50} ms ${ok ? '' : '(WORSE)'}`);
  };

  for (const [name, filter, offset, limit, iterations = ITERATIONS] of pages) {
    await compare(name, (db) => db.repo.page(db.actor, filter, offset, limit), iterations);
  }
  for (const [name, filter, iterations] of exports) {
    await compare(name, (db) => runExport(db, filter), Math.max(2, Math.round(iterations)));
  }

  // 3. Dropping a month: the partition holding the most sales, against DELETE of the same rows.
  const [biggest] = (
    await partitioned.client.query(
      `SELECT tableoid::regclass::text AS name, count(*)::int AS n, min(sold_at) AS lo, max(sold_at) AS hi
       FROM sales GROUP BY 1 ORDER BY 2 DESC LIMIT 1`,
    )
  ).rows;
  const started = performance.now();
  await partitioned.client.query(`ALTER TABLE sales DETACH PARTITION ${biggest.name}`);
  await partitioned.client.query(`DROP TABLE ${biggest.name}`);
  const dropMs = Math.round(performance.now() - started);
  const deleteStarted = performance.now();
  await plain.client.query('BEGIN');
  const deleted = await plain.client.query(`DELETE FROM sales WHERE sold_at >= $1 AND sold_at <= $2`, [
    biggest.lo,
    biggest.hi,
  ]);
  await plain.client.query('ROLLBACK');
  const deleteMs = Math.round(performance.now() - deleteStarted);
  figures[`drop month ${biggest.name} (${biggest.n} sales)`] = {
    unpartitionedP50: deleteMs,
    partitionedP50: dropMs,
  };
  verdicts.push([`drop a month under a second`, dropMs < 1000]);
  log(
    `DETACH + DROP ${biggest.name} (${biggest.n} rows): ${dropMs} ms; DELETE of ${deleted.rowCount} rows: ${deleteMs} ms`,
  );

  const worse = verdicts.filter(([, ok]) => !ok).map(([name]) => name);
  report({
    name: 'partitions',
    figures,
    baseline: { migration },
    notes: [
      `${ROWS.toLocaleString('en')} sales of 1,000 machines over ${DAYS} days, in ${PLAIN} (unpartitioned) and ` +
        `${PARTITIONED} (converted by the migrations in ${migration.seconds} s, then VACUUM ANALYZE in ` +
        `${migration.vacuumSeconds} s). Statements from apps/api's TransactionRepository, as the hot ` +
        `machine's manager; ms, ${ITERATIONS} timed runs per page (exports fewer), the two databases in turn.`,
      `The drop row: partitioned = DETACH PARTITION + DROP TABLE; unpartitioned = DELETE of the same rows ` +
        `(rolled back).`,
      `Load average during the run: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} on ${cpus().length} cores.`,
      `Targets (no page or export worse partitioned, p50 within 10 % or 1 ms; a month dropped under 1 s): ${
        worse.length === 0 ? 'met' : `NOT met: ${worse.join('; ')}`
      }.`,
    ].join('\n'),
  });
} finally {
  for (const db of [plain, partitioned]) {
    await db.client.end();
    await db.repo.onApplicationShutdown();
    await db.ds.destroy();
  }
}
