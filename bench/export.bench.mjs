// npm run bench -- export
// On the seeded benchmark database, downloads the streamed table_data.xlsx of the hot machine's
// 1 million card sales (9 columns, card holders joined) from the API process, as fast as the client
// reads; reports rows/s and the API process's peak RSS (sampled from /proc every 20 ms), beside a
// quarter-sized export (memory must not grow with the rows) and, in the same run, the plain database
// read of the same rows through a cursor (what the xlsx costs on top).
// Targets: ≥ 25,000 rows/s, peak RSS ≤ 300 MB.
import { cpus, loadavg } from 'node:os';
import pg from 'pg';
import { BENCH_ADMIN, BENCH_DATABASE_URL, BENCH_PASSWORD, HOT_MACHINE, seedBench } from '../scripts/seed-bench.mjs';
import { apiClient, login, mb, rssOf, sampleRss } from './lib/measure.mjs';
import { report } from './lib/report.mjs';
import { deleteRedisPrefix, newPrefix, REDIS_URL, startProcess, stopProcess } from './lib/stack.mjs';

await seedBench();
const prefix = newPrefix('export');
const proc = await startProcess({
  DATABASE_URL: BENCH_DATABASE_URL,
  REDIS_URL,
  REDIS_PREFIX: prefix,
  APP_ROLES: 'api',
  PORT: '0',
  JWT_SECRET: 'bench-secret-0123456789',
  LOG_LEVEL: 'warn',
});
const base = `http://127.0.0.1:${proc.httpPort}`;

/** Downloads an export, discarding the bytes; checks the zip is complete (end-of-central-directory). */
async function download(token, path) {
  const started = performance.now();
  const res = await fetch(`${base}/api${path}`, { headers: { authorization: `Bearer ${token}` } });
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  let bytes = 0;
  let tail = Buffer.alloc(0);
  for await (const chunk of res.body) {
    bytes += chunk.length;
    tail = Buffer.concat([tail, chunk]).subarray(-64);
  }
  if (!tail.includes(Buffer.from([0x50, 0x4b, 0x05, 0x06]))) throw new Error(`${path}: the file is incomplete`);
  return { seconds: (performance.now() - started) / 1000, bytes };
}

async function exportRun(token, kind, query, total) {
  const sampler = sampleRss(proc.child.pid);
  const { seconds, bytes } = await download(token, `/machines/${HOT_MACHINE}/${kind}-transactions.xlsx?${query}`);
  const peak = sampler.stop();
  return {
    rows: total,
    seconds: Math.round(seconds * 10) / 10,
    rowsPerSec: Math.round(total / seconds),
    fileMB: mb(bytes),
    peakRssMB: mb(peak),
  };
}

const db = new pg.Client({ connectionString: BENCH_DATABASE_URL });
await db.connect();
try {
  const token = await login(base, BENCH_ADMIN, BENCH_PASSWORD);
  const get = apiClient(base, token);
  const totalOf = async (kind, query) =>
    (await get(`/machines/${HOT_MACHINE}/${kind}-transactions?limit=10&${query}`)).total;
  const idleRss = mb(rssOf(proc.child.pid));
  // Warm up the process (JIT, pools) with a small export.
  await download(token, `/machines/${HOT_MACHINE}/card-transactions.xlsx?startDate=2025-06-01&endDate=2025-06-07`);

  const quarter = 'startDate=2025-01-01&endDate=2025-06-30';
  const figures = {};
  figures['card export, 1M rows (all of the hot machine)'] = await exportRun(
    token,
    'card',
    '',
    await totalOf('card', ''),
  );
  figures['card export, a quarter of the rows'] = await exportRun(
    token,
    'card',
    quarter,
    await totalOf('card', quarter),
  );
  figures['coin export, 1M rows'] = await exportRun(token, 'coin', '', await totalOf('coin', ''));
  for (const [k, v] of Object.entries(figures)) console.log(k, v);

  // Baseline: the same rows through a cursor, without the spreadsheet (the database's share).
  const started = performance.now();
  await db.query('BEGIN READ ONLY');
  await db.query(
    `DECLARE b NO SCROLL CURSOR FOR
     SELECT s.card_id, c.card_type, c.holder_first_name, c.holder_last_name, s.price::text, s.volume::text, s.water_type,
            (extract(epoch FROM s.sold_at AT TIME ZONE 'Africa/Dar_es_Salaam') * 1000)::float8
     FROM sales s LEFT JOIN cards c ON c.card_id = s.card_id
     WHERE s.esp_id = $1 AND s.kind = 'card' ORDER BY s.sold_at DESC, s.id DESC`,
    [HOT_MACHINE],
  );
  let rows = 0;
  for (;;) {
    const batch = await db.query('FETCH 1000 FROM b');
    rows += batch.rowCount;
    if (batch.rowCount < 1000) break;
  }
  await db.query('ROLLBACK');
  const baselineSeconds = (performance.now() - started) / 1000;
  const baseline = {
    'cursor read of the same 1M card rows, no xlsx': { rows, rowsPerSec: Math.round(rows / baselineSeconds) },
  };

  const main = figures['card export, 1M rows (all of the hot machine)'];
  report({
    name: 'export',
    figures: { ...figures, 'API process RSS before any export': { peakRssMB: idleRss } },
    baseline,
    notes: [
      `Targets (≥ 25,000 rows/s, peak RSS ≤ 300 MB for 1M rows): ${
        main.rowsPerSec >= 25_000 && main.peakRssMB <= 300 ? 'met' : 'NOT met'
      }. Peak RSS is the whole API process (APP_ROLES=api; the export's worker thread included), sampled every 20 ms.`,
      `Load average during the run: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} on ${cpus().length} cores.`,
    ].join('\n'),
  });
} finally {
  await db.end();
  await stopProcess(proc);
  await deleteRedisPrefix(prefix);
}
