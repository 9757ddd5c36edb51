// npm run bench -- sale-writes
// PostgreSQL's cost of the worker's sale insert (docs/performance.md, "The daily rollup's index"): the statement
// of apps/api's own SaleRepository.insertBatch, in one transaction per batch of BENCH_BATCH sales (default 250)
// over BENCH_MACHINES machines (default 200, as in the ingest benchmark), run on two schemas in the same run:
// the current one, and the one before RollupHotUpdates1763711100000 (the daily rollup's second index included
// the count, so no rollup update could be HOT). The variants alternate, three times each, so that the machine's
// drift does not favour one. Beside them, the same-run baseline of the ingest benchmark: a plain 1000-row
// INSERT … ON CONFLICT DO NOTHING into a table shaped like `sales`, and PostgreSQL's CPU per row of it.
// CPU is read from /proc for every postgres process (nothing else may use PostgreSQL meanwhile).
import { cpus, loadavg } from 'node:os';
import pg from 'pg';
import { createBaselineTable, insertBaselineRows } from './lib/insert-baseline.mjs';
import { cpuMeter, pidsNamed } from './lib/proc.mjs';
import { report } from './lib/report.mjs';
import { dbUrl, dropDatabase, recreateDatabase } from './lib/stack.mjs';

const BATCH = Number(process.env.BENCH_BATCH ?? 250);
const MACHINES = Number(process.env.BENCH_MACHINES ?? 200);
const BATCHES = Number(process.env.BENCH_BATCHES ?? 400);
const TZ = 'Africa/Dar_es_Salaam';
const { migrations } = await import('../apps/api/dist/database/migrations/index.js');
const { dataSourceOptions } = await import('../apps/api/dist/database/data-source-options.js');
const { SaleRepository } = await import('../apps/api/dist/sale/sale.repository.js');
const { DataSource } = await import('typeorm');

const HOT = migrations.findIndex((m) => m.name === 'RollupHotUpdates1763711100000');
if (HOT < 0) throw new Error('apps/api has no RollupHotUpdates1763711100000 migration: run npm run build');
const log = (msg) => console.log(`[sale-writes ${new Date().toISOString().slice(11, 19)}] ${msg}`);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ROUNDS = 3;
/** PostgreSQL's CPU seconds while `work` runs: every postgres process, those that start during it from zero. */
async function pgCpuOf(work) {
  const meter = cpuMeter({ postgres: () => pidsNamed('postgres') });
  meter.mark();
  await work();
  const { shares, seconds } = meter.shares();
  return { cpuSeconds: shares.postgres * seconds };
}

/** A database migrated by the program's own migrations, all of them or those before `upTo`. */
async function migrated(name, upTo) {
  await recreateDatabase(name);
  const ds = new DataSource({ ...dataSourceOptions(dbUrl(name)), migrations: migrations.slice(0, upTo) });
  await ds.initialize();
  await ds.runMigrations();
  return ds;
}

let eventNo = 0;
/** A batch as the worker builds it: each sale from the next machine in turn, coin and card alike. */
function batch() {
  const now = new Date();
  return Array.from({ length: BATCH }, () => {
    const n = eventNo++;
    return {
      espId: `BENCH-${String(n % MACHINES).padStart(4, '0')}`,
      eventId: `ev-${n}`,
      kind: n % 3 ? 'coin' : 'card',
      price: [10, 20, 50][n % 3],
      volume: [1, 5, 10, 20][n % 4],
      waterType: ['pure', 'fresh', 'cold'][n % 3],
      cardId: null,
      soldAt: now,
      receivedAt: now,
      source: 'mqtt',
      seq: null,
      offline: false,
      dispensed: null,
    };
  });
}

/** BATCHES transactions of insertBatch: sales/s and PostgreSQL's CPU per sale. */
async function writeSales(ds) {
  const repo = new SaleRepository(ds);
  const batches = Array.from({ length: BATCHES }, batch);
  const started = performance.now();
  const { cpuSeconds } = await pgCpuOf(async () => {
    for (const rows of batches) await ds.transaction((m) => repo.insertBatch(m, rows, TZ));
  });
  const seconds = (performance.now() - started) / 1000;
  const sales = BATCHES * BATCH;
  return { rate: sales / seconds, pgMicros: (cpuSeconds * 1e6) / sales };
}

/**
 * Updates of the daily rollup in database `name`, and how many of them were heap-only (HOT). Read after its
 * connections closed: a backend reports its counts when it exits, so none are missing.
 */
async function rollupUpdates(name) {
  const client = new pg.Client({ connectionString: dbUrl(name) });
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT n_tup_upd::int AS updates, n_tup_hot_upd::int AS hot FROM pg_stat_user_tables WHERE relname = 'sales_daily'`,
    );
    return rows[0];
  } finally {
    await client.end();
  }
}

/** The ingest benchmark's baseline: 1000-row INSERT … ON CONFLICT DO NOTHING into a plain table like `sales`. */
async function baseline(name) {
  const rows = Array.from({ length: 50_000 }, (_, n) => {
    const at = new Date();
    return [
      `BENCH-${String(n % MACHINES).padStart(4, '0')}`,
      `base-${eventNo++}`,
      n % 3 ? 'coin' : 'card',
      '10.00',
      '1.000',
      'pure',
      null,
      at,
      at.toISOString().slice(0, 10),
      at,
      'mqtt',
    ];
  });
  const client = new pg.Client({ connectionString: dbUrl(name) });
  await client.connect();
  try {
    await createBaselineTable(client);
    const started = performance.now();
    const { cpuSeconds } = await pgCpuOf(() => insertBaselineRows(client, rows));
    const seconds = (performance.now() - started) / 1000;
    await client.query('DROP TABLE baseline_sales');
    return { rate: rows.length / seconds, pgMicros: (cpuSeconds * 1e6) / rows.length };
  } finally {
    await client.end();
  }
}

const names = { after: `wv_bench_sale_writes_${process.pid}`, before: `wv_bench_sale_writes_before_${process.pid}` };
const sources = {};
try {
  sources.after = await migrated(names.after);
  sources.before = await migrated(names.before, HOT);
  const baselines = [];
  const runs = { before: [], after: [] };
  for (let round = 0; round < ROUNDS; round++) {
    baselines.push(await baseline(names.after));
    for (const variant of round % 2 === 0 ? ['before', 'after'] : ['after', 'before']) {
      runs[variant].push(await writeSales(sources[variant]));
      log(
        `${variant}: ${Math.round(runs[variant].at(-1).rate)} sales/s, ${runs[variant].at(-1).pgMicros.toFixed(1)} µs`,
      );
    }
  }
  const base = { rate: median(baselines.map((b) => b.rate)), pgMicros: median(baselines.map((b) => b.pgMicros)) };
  for (const ds of Object.values(sources)) await ds.destroy();
  const hot = { before: await rollupUpdates(names.before), after: await rollupUpdates(names.after) };
  const figures = {
    'baseline: 1000-row INSERT … ON CONFLICT rows/s (median of 3)': Math.round(base.rate),
    'baseline: PostgreSQL CPU per row (µs)': base.pgMicros.toFixed(1),
  };
  for (const variant of ['before', 'after']) {
    const label = variant === 'before' ? 'count in the rollup index (before)' : 'rollup updates can be HOT (after)';
    const rs = runs[variant];
    figures[`${label}: sales/s, each run`] = rs.map((r) => Math.round(r.rate)).join(' / ');
    figures[`${label}: sales/s / baseline`] = (median(rs.map((r) => r.rate)) / base.rate).toFixed(2);
    figures[`${label}: PostgreSQL CPU per sale (µs), each run`] = rs.map((r) => r.pgMicros.toFixed(1)).join(' / ');
    figures[`${label}: PostgreSQL CPU per sale / per baseline row`] = (
      median(rs.map((r) => r.pgMicros)) / base.pgMicros
    ).toFixed(2);
    figures[`${label}: daily rollup updates, HOT`] = `${hot[variant].updates}, ${hot[variant].hot}`;
  }
  report({
    name: 'sale-writes',
    figures,
    notes:
      `${BATCHES} transactions of ${BATCH} sales over ${MACHINES} machines per run, through SaleRepository.insertBatch ` +
      `(the sale, its key, the daily and monthly rollups); ${cpus().length} cores, load ${loadavg()[0].toFixed(2)}.`,
  });
} finally {
  for (const ds of Object.values(sources)) if (ds.isInitialized) await ds.destroy().catch(() => undefined);
  for (const name of Object.values(names)) await dropDatabase(name).catch(() => undefined);
}
