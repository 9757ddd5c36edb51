#!/usr/bin/env node
// `node scripts/seed-bench.mjs`: fills the benchmark database (BENCH_DATABASE_URL, default
// postgres://postgres@localhost:5432/water_vending_bench) with 10 million sales of 1,000 machines over
// the last two years, their rollups, cards and users, in a few minutes. Idempotent: a database it
// finished is left alone; one it was interrupted in is emptied and seeded again; a database that holds
// sales it did not write is refused (so it can never fill a real deployment by mistake).
//
// Rows are generated inside PostgreSQL (INSERT … SELECT over generate_series, in time order, a million
// per statement) with only the primary key in place; the other indexes are dropped and rebuilt after
// by sort, from their own definitions, and the rollups are built by one INSERT … SELECT … GROUP BY.
import { Algorithm, hash } from '@node-rs/argon2';
import { existsSync } from 'node:fs';
import pg from 'pg';
import { BENCH_LOGIN } from '../bench/lib/stack.mjs';

export const BENCH_DATABASE_URL =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@localhost:5432/water_vending_bench';
/** Every seeded user's password, and the admin the program creates: the benchmarks' one sign-in. */
export const BENCH_PASSWORD = BENCH_LOGIN.password;
export const BENCH_ADMIN = BENCH_LOGIN.email;
export const benchManager = (i) => `manager${i}@bench.local`;
/** The machine with 1 million card and 1 million coin sales: deep pages and the 1M-row export. */
export const HOT_MACHINE = 'BENCH-0000';
export const MACHINES = Number(process.env.BENCH_MACHINES ?? 1000);
export const SALES = Number(process.env.BENCH_SALES ?? 10_000_000);
const TZ = process.env.APP_TIMEZONE ?? 'Africa/Dar_es_Salaam';
const CHUNK = 1_000_000;
const DAYS = Number(process.env.BENCH_DAYS ?? 730);
const CARDS_PER_MACHINE = 50;

const log = (msg) => console.log(`[seed-bench ${new Date().toISOString().slice(11, 19)}] ${msg}`);

async function ensureDatabase(url) {
  const admin = new URL(url);
  const name = decodeURIComponent(admin.pathname.slice(1));
  admin.pathname = '/postgres';
  const c = new pg.Client({ connectionString: admin.toString() });
  await c.connect();
  const found = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  if (!found.rowCount) await c.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
  await c.end();
}

/** Runs the migrations (all of them, or the first `upTo` of apps/api's list). */
async function migrate(url, upTo) {
  const dist = new URL('../apps/api/dist/database/data-source-options.js', import.meta.url);
  if (!existsSync(dist)) throw new Error('apps/api is not built: run npm run build first');
  const { dataSourceOptions } = await import(dist.href);
  const { DataSource } = await import('typeorm');
  const options = dataSourceOptions(url);
  const ds = new DataSource(
    upTo === undefined ? options : { ...options, migrations: options.migrations.slice(0, upTo) },
  );
  await ds.initialize();
  await ds.runMigrations({ transaction: 'each' });
  await ds.destroy();
}

/** 'done', 'seeding' (interrupted: ours to redo), 'foreign' (sales we did not write) or 'empty'. */
async function state(c) {
  const { rows: table } = await c.query(`SELECT to_regclass('bench_seed') IS NOT NULL AS exists`);
  const marker = table[0].exists ? (await c.query(`SELECT state FROM bench_seed`)).rows[0]?.state : undefined;
  if (marker) return marker;
  const { rows } = await c.query(`SELECT EXISTS (SELECT 1 FROM sales) AS any`);
  return rows[0].any ? 'foreign' : 'empty';
}

async function seedPeople(c) {
  const passwordHash = await hash(BENCH_PASSWORD, {
    algorithm: Algorithm.Argon2id,
    memoryCost: 19_456,
    timeCost: 2,
    parallelism: 1,
  });
  await c.query(
    `INSERT INTO users (id, role, first_name, last_name, username, email, phone_number, location, password_hash)
     VALUES (gen_random_uuid(), 'admin', 'Bench', 'Admin', 'bench-admin', $1, '+255700000000', 'Head office', $2)`,
    [BENCH_ADMIN, passwordHash],
  );
  // Ten managers own a hundred machines each; every machine has an attendant and 50 cards.
  await c.query(
    `INSERT INTO users (id, role, first_name, last_name, username, email, phone_number, location, password_hash)
     SELECT gen_random_uuid(), 'manager', 'Manager', m::text, 'bench-manager-' || m, 'manager' || m || '@bench.local',
            '+2557100' || lpad(m::text, 5, '0'), 'Dar es Salaam', $1
     FROM generate_series(0, 9) m`,
    [passwordHash],
  );
  await c.query(
    `INSERT INTO devices (esp_id, owner_id, location, online, last_seen_at, created_at)
     SELECT 'BENCH-' || lpad(i::text, 4, '0'), u.id, (ARRAY['Kariakoo','Mwenge','Ubungo','Sinza','Posta'])[1 + i % 5],
            i % 3 <> 0, now() - (i % 60) * interval '1 minute', now() - interval '${DAYS} days'
     FROM generate_series(0, $1 - 1) i
     JOIN users u ON u.email = 'manager' || (i * 10 / $1) || '@bench.local'`,
    [MACHINES],
  );
  await c.query(
    `INSERT INTO users (id, role, first_name, last_name, username, phone_number, location, password_hash, manager_id)
     SELECT gen_random_uuid(), 'attendant', 'Attendant', d.esp_id, 'bench-attendant-' || d.esp_id,
            '+2557200' || substr(d.esp_id, 7), 'Dar es Salaam', $1, d.owner_id
     FROM devices d`,
    [passwordHash],
  );
  await c.query(
    `UPDATE devices d SET attendant_id = u.id FROM users u WHERE u.username = 'bench-attendant-' || d.esp_id`,
  );
  await c.query(
    `INSERT INTO cards (card_id, esp_id, holder_first_name, holder_last_name, card_type, balance, date_registered)
     SELECT 'C' || substr(d.esp_id, 7) || '-' || n, d.esp_id,
            (ARRAY['Amina','Baraka','Neema','Juma','Rehema','Faraji'])[1 + n % 6],
            (ARRAY['Mushi','Kweka','Mrema','Said','Mollel'])[1 + n % 5],
            (ARRAY['student','family','staff','retail'])[1 + n % 4], 10000, now() - interval '${DAYS} days'
     FROM devices d CROSS JOIN generate_series(0, ${CARDS_PER_MACHINE - 1}) n`,
  );
}

/**
 * One chunk of sales, in time order (ids follow time, as they do in production). Every fifth sale is
 * the hot machine's, alternating coin and card; the others spread over the remaining machines, 45 %
 * card. Card ids 50 and 51 of a machine are not registered: stored and flagged, as the ingest does.
 */
async function insertChunk(c, from, to, startIso, stepMs) {
  await c.query(
    `INSERT INTO sales (esp_id, event_id, kind, price, volume, water_type, card_id, flag, sold_at, local_date, received_at, source)
     SELECT 'BENCH-' || lpad(mi::text, 4, '0'), 'b' || g, kind, price, price / 50.0,
            (ARRAY['pure','fresh','cold'])[1 + (h >> 8) % 3],
            CASE WHEN kind = 'card' THEN 'C' || lpad(mi::text, 4, '0') || '-' || cn END,
            CASE WHEN kind = 'card' AND cn >= ${CARDS_PER_MACHINE} THEN 'unknown_card' END,
            t, (t AT TIME ZONE $5)::date, t, 'mqtt'
     FROM generate_series($1::bigint, $2::bigint) g
     CROSS JOIN LATERAL (SELECT (g * 2654435761) % 4294967296 AS h) x
     CROSS JOIN LATERAL (
       SELECT CASE WHEN g % 5 = 0 THEN 0 ELSE 1 + h % ($6 - 1) END AS mi,
              CASE WHEN g % 5 = 0 THEN (CASE WHEN (g / 5) % 2 = 0 THEN 'coin' ELSE 'card' END)
                   WHEN h % 100 < 45 THEN 'card' ELSE 'coin' END AS kind,
              (ARRAY[250, 500, 750, 1000, 1500, 2000])[1 + (h >> 4) % 6]::numeric AS price,
              (h >> 12) % ${CARDS_PER_MACHINE + 2} AS cn,
              $3::timestamptz + ((g - 1) * $4::float8 + (h % 1000) * $4::float8 / 1000) * interval '1 millisecond' AS t
     ) v`,
    [from, to, startIso, stepMs, TZ, MACHINES],
  );
}

/**
 * Month partitions over the seeded span when `sales` is partitioned (docs/partitions.md), named and bounded
 * as the worker's job makes them, so that no seeded sale lands in the default partition.
 */
async function ensureMonthPartitions(c, startIso) {
  const { rows } = await c.query(`SELECT relkind FROM pg_class WHERE oid = 'sales'::regclass`);
  if (rows[0].relkind !== 'p') return;
  const start = new Date(startIso);
  const end = new Date();
  for (let m = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth(), 1)); m <= end;) {
    const next = new Date(Date.UTC(m.getUTCFullYear(), m.getUTCMonth() + 1, 1));
    const name = `sales_${m.getUTCFullYear()}_${String(m.getUTCMonth() + 1).padStart(2, '0')}`;
    await c.query(
      `CREATE TABLE IF NOT EXISTS ${name} PARTITION OF sales FOR VALUES FROM ('${m.toISOString()}') TO ('${next.toISOString()}')`,
    );
    m = next;
  }
}

/** The exactly-once keys of the seeded sales (docs/partitions.md), when the schema has them. */
async function fillSaleKeys(c) {
  const { rows } = await c.query(`SELECT to_regclass('sale_keys') IS NOT NULL AS exists`);
  if (!rows[0].exists) return;
  await c.query(`ALTER TABLE sale_keys DROP CONSTRAINT sale_keys_pkey`);
  await c.query(`DROP INDEX sale_keys_sold_at_idx`);
  await c.query(`INSERT INTO sale_keys (esp_id, event_id, sold_at) SELECT esp_id, event_id, sold_at FROM sales`);
  await c.query(`ALTER TABLE sale_keys ADD PRIMARY KEY (esp_id, event_id)`);
  await c.query(`CREATE INDEX sale_keys_sold_at_idx ON sale_keys (sold_at)`);
  log('sale_keys');
}

/**
 * Seeds `url` once. `upTo` runs only the first `upTo` migrations (bench/partitions.bench.mjs seeds the
 * schema before the sales partitioning that way, and converts a copy).
 */
export async function seedBench(url = BENCH_DATABASE_URL, { upTo } = {}) {
  await ensureDatabase(url);
  await migrate(url, upTo);
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const current = await state(c);
    if (current === 'done') {
      log(`${url} is already seeded`);
      return;
    }
    if (current === 'foreign') throw new Error(`${url} holds sales this script did not write: refusing to seed it`);
    const started = Date.now();
    await c.query(`SET synchronous_commit = off`);
    await c.query(`SET maintenance_work_mem = '1GB'`);
    if (current === 'seeding') {
      log('an earlier run was interrupted: emptying its tables');
      await c.query(`TRUNCATE sales, sales_daily, sales_monthly, cards, bench_seed`);
      if ((await c.query(`SELECT to_regclass('sale_keys') AS t`)).rows[0].t) await c.query(`TRUNCATE sale_keys`);
      await c.query(`UPDATE devices SET owner_id = NULL, attendant_id = NULL`);
      await c.query(`DELETE FROM devices`);
      await c.query(`DELETE FROM users`);
    }
    await c.query(`CREATE TABLE IF NOT EXISTS bench_seed (state text NOT NULL, sales bigint, seeded_at timestamptz)`);
    await c.query(`INSERT INTO bench_seed (state) VALUES ('seeding')`);
    await seedPeople(c);
    log(`${MACHINES} machines, 10 managers, ${MACHINES} attendants, ${MACHINES * CARDS_PER_MACHINE} cards`);

    // Secondary indexes are rebuilt by sort afterwards, from the definitions the migrations made.
    const { rows: indexes } = await c.query(
      `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'sales' AND indexname <> 'sales_pkey'`,
    );
    for (const i of indexes) await c.query(`DROP INDEX ${pg.escapeIdentifier(i.indexname)}`);
    const stepMs = (DAYS * 86_400_000) / SALES;
    const { rows } = await c.query(`SELECT (now() - interval '${DAYS} days')::text AS start`);
    await ensureMonthPartitions(c, rows[0].start);
    for (let from = 1; from <= SALES; from += CHUNK) {
      const to = Math.min(SALES, from + CHUNK - 1);
      await insertChunk(c, from, to, rows[0].start, stepMs);
      log(`sales ${to.toLocaleString('en')} / ${SALES.toLocaleString('en')}`);
    }
    for (const i of indexes) {
      // A partitioned table's definitions read `ON ONLY` (the parent alone): built here on every partition.
      await c.query(i.indexdef.replace(' ON ONLY ', ' ON '));
      log(`index ${i.indexname}`);
    }
    await fillSaleKeys(c);
    // In the order the ingest writes them: a day's (a month's) rollup rows are created as it passes.
    for (const [table, bucket, expr] of [
      ['sales_daily', 'day', 'local_date'],
      ['sales_monthly', 'month', `date_trunc('month', local_date)::date`],
    ]) {
      await c.query(
        `INSERT INTO ${table} (esp_id, ${bucket}, kind, price_total, volume_total, sales_count)
         SELECT esp_id, ${expr}, kind, sum(price), sum(volume), count(*) FROM sales GROUP BY 1, 2, 3 ORDER BY 2, 1, 3`,
      );
      log(`rollup ${table}`);
    }
    // Visibility map and statistics, as autovacuum would leave them on a long-running database.
    await c.query(`VACUUM ANALYZE sales`);
    if ((await c.query(`SELECT to_regclass('sale_keys') AS t`)).rows[0].t) await c.query(`VACUUM ANALYZE sale_keys`);
    await c.query(`VACUUM ANALYZE sales_daily, sales_monthly, cards, devices, users`);
    await c.query(`UPDATE bench_seed SET state = 'done', sales = $1, seeded_at = now()`, [SALES]);
    log(`seeded ${SALES.toLocaleString('en')} sales in ${Math.round((Date.now() - started) / 1000)} s`);
  } finally {
    await c.end();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  seedBench().catch((error) => {
    console.error(`seed-bench: ${error.message}`);
    process.exit(1);
  });
}
