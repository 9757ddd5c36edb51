// npm run bench -- fuzz-mqtt          (FUZZ_MINUTES=30 for the full run; default 2)
// The program (all roles, one process, as `npm start` runs it) on a fresh database; raw TCP and
// WebSocket connections send mutated MQTT packets and the known crash inputs to its broker while
// honest machines sell QoS 1. Passes when the process never died, /api/health answers 200 at the end,
// and every sale an honest machine got a PUBACK for is stored (esp_id, event_id).
// FUZZ_SEED replays a run's random choices; FUZZ_REPLAY=<crash file> replays saved inputs instead.
import { readFileSync, writeFileSync } from 'node:fs';
import pg from 'pg';
import { report } from './lib/report.mjs';
import { freshSeed, createRandom } from './lib/prng.mjs';
import { fuzzMacs, missingSales, replayInputs, runMqttFuzz, startHonestFleet } from './lib/mqtt-fuzz.mjs';
import { adminToken, benchDeployment, provisionMachines, startProcess } from './lib/stack.mjs';

const MINUTES = Number(process.env.FUZZ_MINUTES ?? 2);
const SEED = Number(process.env.FUZZ_SEED ?? freshSeed());
const HONEST = Number(process.env.FUZZ_HONEST_MACHINES ?? 10);
const CONCURRENCY = Number(process.env.FUZZ_CONCURRENCY ?? 16);
const REPLAY = process.env.FUZZ_REPLAY;
const CONNECT_RATE = '1000000';

// Interrupted: exit through process.exit so that stack.mjs kills the program it started.
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(130));
console.log(`fuzz-mqtt: seed ${SEED}, ${REPLAY ? `replaying ${REPLAY}` : `${MINUTES} min`}`);
const deployment = await benchDeployment('fuzz_mqtt', {
  // The fuzzer opens hundreds of connections per second from a few loopback addresses.
  MQTT_CONNECT_RATE: CONNECT_RATE,
  HTTP_RATE_LIMIT: '100000',
});
const { env } = deployment;
const proc = await startProcess(env);
const base = `http://127.0.0.1:${proc.httpPort}`;
const api = `${base}/api`;
const login = () => adminToken(base);
const alive = () => proc.child.exitCode === null && proc.child.signalCode === null;
let liveFailures = 0;
const isAlive = async () => {
  if (!alive()) return false;
  const ok = await fetch(`${api}/health/live`, { signal: AbortSignal.timeout(10_000) })
    .then((r) => r.status === 200)
    .catch(() => false);
  liveFailures = ok ? 0 : liveFailures + 1;
  // A process that stops answering for 30 s counts as crashed (hung).
  return alive() && liveFailures < 3;
};

const token = await login();
const honest = await provisionMachines(base, token, HONEST, 'HONEST');
const fuzz = await provisionMachines(base, token, 8, 'FUZZ');
const identities = { fuzz, honest, macs: fuzzMacs(createRandom(SEED ^ 0x5eed)) };
const target = { host: '127.0.0.1', mqttPort: proc.mqttPort, httpPort: proc.httpPort, wsPath: '/mqtt' };

const fleet = startHonestFleet({ url: `mqtt://127.0.0.1:${proc.mqttPort}`, machines: honest, salesPerSecond: 5 });
const started = Date.now();
let result;
if (REPLAY) {
  const saved = JSON.parse(readFileSync(REPLAY, 'utf8'));
  const stats = await replayInputs(target, saved.inputs);
  result = { stats, crashed: !(await isAlive()), recent: saved.inputs };
} else {
  result = await runMqttFuzz({
    target,
    identities,
    durationMs: MINUTES * 60_000,
    seed: SEED,
    concurrency: CONCURRENCY,
    isAlive,
    onProgress: (s) =>
      process.stdout.write(
        `\r  ${Math.round((Date.now() - started) / 1000)} s: ${s.connections} connections, ${s.packetsSent} packets, honest PUBACKed ${fleet.state.pubacked}   `,
      ),
  });
}
const fuzzSeconds = (Date.now() - started) / 1000;
console.log('');
const honestResult = await fleet.stop();

const db = new pg.Client({ connectionString: deployment.databaseUrl });
await db.connect();
const missing = alive() ? await missingSales(db, fleet.pubacked) : ['(process died: not checked)'];
const health = alive()
  ? await fetch(`${api}/health`)
      .then((r) => r.status)
      .catch(() => 0)
  : 0;
const [{ n: fuzzSalesStored }] = (await db.query(`SELECT count(*)::int AS n FROM sales WHERE esp_id LIKE 'FUZZ-%'`))
  .rows;
const [{ n: deadLetters }] = (await db.query('SELECT count(*)::int AS n FROM dead_letters')).rows;
await db.end();
let refusals = '';
if (alive()) {
  const metrics = await fetch(`${api}/metrics`, { headers: { authorization: `Bearer ${await login()}` } }).then((r) =>
    r.text(),
  );
  refusals = metrics
    .split('\n')
    .filter((l) => l.startsWith('wv_broker_refusals_total{'))
    .map((l) => l.replace(/^wv_broker_refusals_total\{reason="([^"]+)"\} (\d+)$/, '$1 $2'))
    .join(', ');
}
if (missing.length && alive()) {
  // What became of them: a failing batch (worker warn lines), dead letters, failed jobs.
  const file = `bench/results/fuzz-mqtt-lost-${SEED}.json`;
  const warnings = proc
    .output()
    .split('\n')
    .filter((l) => /Sales batch|refuses|failed/.test(l))
    .slice(-200);
  writeFileSync(file, JSON.stringify({ seed: SEED, missing, warnings }, null, 2));
  console.error(`${missing.length} PUBACKed sales are not stored; details in ${file}`);
}
const crashed = result.crashed || !alive();
if (crashed) {
  const file = `bench/results/fuzz-mqtt-crash-${SEED}.json`;
  writeFileSync(file, JSON.stringify({ seed: SEED, inputs: result.recent, output: proc.output().slice(-20_000) }));
  console.error(`The broker died or hung; the last inputs are in ${file} (replay: FUZZ_REPLAY=${file})`);
}
const errorLines = proc
  .output()
  .split('\n')
  .filter((l) => /"level":"(error|fatal)"/.test(l));
const failedBatches = proc
  .output()
  .split('\n')
  .filter((l) => /Sales batch .* failed/.test(l)).length;
await deployment.teardown([proc]);

const s = result.stats;
report({
  name: 'fuzz-mqtt',
  figures: {
    'minutes fuzzed': Number((fuzzSeconds / 60).toFixed(1)),
    seed: SEED,
    'connections opened': s.connections,
    'packets sent': s.packetsSent,
    'MB sent': Number((s.bytesSent / 1e6).toFixed(1)),
    'known crash inputs replayed': s.knownCrashInputsReplayed ?? 0,
    'mutated sequences': s.mutatedSequences ?? 0,
    'connections closed by the broker': s.closedByBroker,
    'crashes (process died or hung)': crashed ? 1 : 0,
    'GET /api/health afterwards': health,
    'honest sales PUBACKed': honestResult.pubacked,
    'honest sales PUBACKed and stored':
      honestResult.pubacked - (missing[0]?.startsWith('(') ? honestResult.pubacked : missing.length),
    'honest sales lost': missing.length,
    'honest sales without sales/ack': honestResult.salesAckMissing,
    'honest machine disconnects': honestResult.disconnects,
    'fuzz sales stored / dead letters': `${fuzzSalesStored} / ${deadLetters}`,
    'error log lines': errorLines.length,
    'sales batch failures (worker retries)': failedBatches,
  },
  notes:
    `${HONEST} honest machines at 5 sales/s each; ${CONCURRENCY} fuzz connections at a time, 10% over WebSocket; ` +
    `MQTT_CONNECT_RATE=${CONNECT_RATE} and HTTP_RATE_LIMIT=100000 (one client address); LOG_LEVEL=warn.\n` +
    `CONNACK codes seen: ${JSON.stringify(s.connacks)}\nbroker refusals: ${refusals}` +
    (errorLines.length ? `\nfirst error lines:\n${errorLines.slice(0, 5).join('\n')}` : ''),
});
process.exit(crashed || missing.length > 0 || health !== 200 ? 1 : 0);
