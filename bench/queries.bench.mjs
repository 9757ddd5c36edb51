// npm run bench -- queries
// On the seeded benchmark database (scripts/seed-bench.mjs: 10 million sales, 1,000 machines, two
// years), times the API over HTTP, one request after another: transaction pages with their total at
// page 1 and at deep pages (the hot machine holds 1 million card sales), the daily summary of all
// 1,000 machines as admin, and the other dashboard reads. Beside them, in the same run, the naive
// queries they replace (OFFSET over the rows and count(*); sums over the sales themselves).
// Targets: page p95 ≤ 50 ms at any depth, daily summary p95 ≤ 50 ms.
import { cpus, loadavg } from 'node:os';
import pg from 'pg';
import {
  BENCH_ADMIN,
  BENCH_DATABASE_URL,
  BENCH_PASSWORD,
  benchManager,
  HOT_MACHINE,
  seedBench,
} from '../scripts/seed-bench.mjs';
import { apiClient, login, measure, todayIn } from './lib/measure.mjs';
import { report } from './lib/report.mjs';
import { deleteRedisPrefix, newPrefix, REDIS_URL, startProcess, stopProcess } from './lib/stack.mjs';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 200);
const TYPICAL = 'BENCH-0500';

await seedBench();
const prefix = newPrefix('queries');
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
const db = new pg.Client({ connectionString: BENCH_DATABASE_URL });
await db.connect();
try {
  const admin = apiClient(base, await login(base, BENCH_ADMIN, BENCH_PASSWORD));
  const manager = apiClient(base, await login(base, benchManager(5), BENCH_PASSWORD));
  const today = todayIn();
  const hot = (q) => `/machines/${HOT_MACHINE}/card-transactions?${q}`;
  const typical = (q) => `/machines/${TYPICAL}/coin-transactions?${q}`;
  const hotTotal = (await admin(hot('limit=10'))).total;
  const typicalTotal = (await admin(typical('limit=10'))).total;
  const last = (total, limit) => Math.ceil(total / limit);
  const range = 'startDate=2025-06-01&endDate=2025-08-31';
  const rangeTotal = (await admin(hot(range))).total;

  const figures = {};
  const time = async (name, path, client = admin, iterations = ITERATIONS) => {
    figures[name] = { ...(await measure(() => client(path), { iterations })), path };
    console.log(name, figures[name]);
  };
  // The floor: what any authenticated call costs here (token check, one query, HTTP) on this box now.
  await time('floor: GET /user/info (auth and one row)', '/user/info');
  const hotPages = `hot machine, ${hotTotal.toLocaleString('en')} card sales`;
  await time(`page 1 (limit 10), ${hotPages}`, hot('page=1&limit=10'));
  await time(`middle page (limit 10), ${hotPages}`, hot(`page=${last(hotTotal, 20)}&limit=10`));
  await time(`last page (limit 10), ${hotPages}`, hot(`page=${last(hotTotal, 10)}&limit=10`));
  await time(`last page ascending (limit 10), ${hotPages}`, hot(`page=${last(hotTotal, 10)}&limit=10&order=asc`));
  await time(`page 1 (limit 1000), ${hotPages}`, hot('page=1&limit=1000'));
  await time(`last page (limit 1000), ${hotPages}`, hot(`page=${last(hotTotal, 1000)}&limit=1000`));
  await time(
    `deep page in a 3-month range (${rangeTotal} rows)`,
    hot(`${range}&page=${last(rangeTotal, 10) - 3}&limit=10`),
  );
  await time(`page 1, typical machine (${typicalTotal} coin sales)`, typical('page=1&limit=10'));
  await time(`last page, typical machine`, typical(`page=${last(typicalTotal, 10)}&limit=10`));
  await time(
    `last page sorted by price, typical machine`,
    typical(`page=${last(typicalTotal, 10)}&limit=10&sort=price&order=asc`),
  );
  await time(`daily summary, admin, 1,000 machines`, `/user/machines/daily-summary?date=${today}`);
  await time(`daily summary, admin, 1,000 machines, no date`, `/user/machines/daily-summary`);
  await time(`daily summary, manager, 100 machines`, `/user/machines/daily-summary?date=${today}`, manager);
  await time(`monthly summary, admin, 1,000 machines`, `/user/machines/monthly-summary?date=${today}`);
  await time(`overview (hours, water types, machines), admin`, `/user/machines/overview?date=${today}`, admin, 50);
  await time(`recent sales (50), admin`, `/user/machines/recent-sales?limit=50`);
  await time(`recent sales (50), manager`, `/user/machines/recent-sales?limit=50`, manager);
  // The slow path this design avoids, reported, not a target: sorting a 1M-row machine by price.
  await time(
    `deep page sorted by price, hot machine (sort of 1M rows)`,
    hot(`page=${last(hotTotal, 20)}&limit=10&sort=price`),
    admin,
    10,
  );

  // Baselines in the same run: what a page and a summary cost without the rollups and the seek.
  const sql = (text, params) => () => db.query(text, params);
  const baseline = {};
  const naive = async (name, ...queries) => {
    baseline[name] = await measure(() => Promise.all(queries.map((q) => q())), { iterations: 20, warmup: 2 });
    console.log('baseline', name, baseline[name]);
  };
  await naive(
    'last page (limit 10) by OFFSET + count(*), hot machine',
    sql(
      `SELECT s.id, s.card_id, c.card_type, s.price, s.volume, s.water_type, s.sold_at FROM sales s
       LEFT JOIN cards c ON c.card_id = s.card_id
       WHERE s.esp_id = $1 AND s.kind = 'card' ORDER BY s.sold_at DESC, s.id DESC OFFSET $2 LIMIT 10`,
      [HOT_MACHINE, (last(hotTotal, 10) - 1) * 10],
    ),
    sql(`SELECT count(*) FROM sales WHERE esp_id = $1 AND kind = 'card'`, [HOT_MACHINE]),
  );
  await naive(
    'daily summary of 1,000 machines summed from the sales rows',
    sql(
      `SELECT d.esp_id, s.kind, sum(s.price), sum(s.volume) FROM devices d
       LEFT JOIN sales s ON s.esp_id = d.esp_id AND s.local_date = $1::date GROUP BY 1, 2`,
      [today],
    ),
  );
  await naive(
    'monthly summary of 1,000 machines summed from the sales rows',
    sql(
      `SELECT s.esp_id, s.kind, sum(s.price), sum(s.volume) FROM sales s
       WHERE s.sold_at >= date_trunc('month', now()) GROUP BY 1, 2`,
    ),
  );

  const targets = Object.entries(figures).filter(
    ([name]) => /page|summary, admin/.test(name) && !/sorted by price, hot/.test(name),
  );
  report({
    name: 'queries',
    figures: Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, { p50: v.p50, p95: v.p95, p99: v.p99 }])),
    baseline,
    notes: [
      `HTTP, sequential, ${ITERATIONS} timed requests after 20 warm-up each; ms. Database ${BENCH_DATABASE_URL}.`,
      `Load average during the run: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')} on ${cpus().length} cores.`,
      `Targets (p95 ≤ 50 ms for pages at any depth and the daily summary): ${
        targets.every(([, v]) => v.p95 <= 50)
          ? 'met'
          : 'NOT met: ' +
            targets
              .filter(([, v]) => v.p95 > 50)
              .map(([k]) => k)
              .join('; ')
      }.`,
    ].join('\n'),
  });
} finally {
  await db.end();
  await stopProcess(proc);
  await deleteRedisPrefix(prefix);
}
