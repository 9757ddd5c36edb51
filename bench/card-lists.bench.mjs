// npm run bench -- card-lists
// Fan-out of the card lists (docs/device-protocol.md, "Card lists"): one manager owns 500 machines,
// each an mqtt.js client keeping its list as the firmware would (full lists, deltas on the version
// held, acknowledgements). A top-up of one card through the API must reach all 500 lists; reports
// the seconds from the top-up's answer until each machine holds the new balance, over several
// changes. The api+broker and the workers run as two processes (APP_ROLES). Target: every list
// within 5 s.
import { buildCardsAckTopic, buildCardsDeltaTopic, buildCardsTopic } from '@wv/contracts';
import mqtt from 'mqtt';
import pg from 'pg';
import { randomBytes, randomUUID } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { login } from './lib/measure.mjs';
import { percentile, report } from './lib/report.mjs';
import { adminToken, benchDeployment, provisionMachines, startProcess } from './lib/stack.mjs';

const MACHINES = Number(process.env.BENCH_MACHINES ?? 500);
const CARDS = Number(process.env.BENCH_CARDS ?? 1000);
const CHANGES = Number(process.env.BENCH_CHANGES ?? 20);

// Every machine connects from 127.0.0.1: the per-address connect limit (100/s) would refuse most of them.
const deployment = await benchDeployment('card_lists', { HTTP_RATE_LIMIT: '1000000', MQTT_CONNECT_RATE: '100000' });
const { env } = deployment;
const procs = [
  await startProcess({ ...env, APP_ROLES: 'api,broker' }),
  await startProcess({ ...env, APP_ROLES: 'worker' }),
];
const front = procs[0];
const base = `http://127.0.0.1:${front.httpPort}`;
const clients = [];

async function call(method, path, body, token) {
  const res = await fetch(`${base}/api${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

const phone = () => `+2557${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
const waitUntil = async (ok, what, timeoutMs) => {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`${what} not reached in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

try {
  const admin = await adminToken(base);
  console.log(`provisioning ${MACHINES} machines …`);
  const machines = await provisionMachines(base, admin, MACHINES, 'LIST');
  const managerId = randomUUID();
  const manager = { email: `manager-${randomBytes(3).toString('hex')}@bench.local`, password: 'password-1234' };
  await call(
    'POST',
    '/admin/register-user',
    {
      userId: managerId,
      firstName: 'Bench',
      lastName: 'Manager',
      username: `bench-${randomBytes(3).toString('hex')}`,
      email: manager.email,
      password: manager.password,
      phoneNumber: phone(),
      location: 'Dar es Salaam',
      esp32Id: machines[0].espId,
      machine_location: 'Kariakoo',
    },
    admin,
  );
  for (const m of machines.slice(1)) {
    await call('POST', '/add/user/devices', { userId: managerId, esp32Id: m.espId, machine_location: 'Mwenge' }, admin);
  }
  const managerToken = await login(base, manager.email, manager.password);
  const attendant = { phoneNumber: phone(), password: 'password-1234', userId: randomUUID() };
  await call(
    'POST',
    '/attendant/user/register-user',
    {
      userId: attendant.userId,
      firstName: 'Bench',
      lastName: 'Attendant',
      username: `att-${randomBytes(3).toString('hex')}`,
      phoneNumber: attendant.phoneNumber,
      password: attendant.password,
      location: 'Dar es Salaam',
      esp32Id: machines[0].espId,
      machine_location: 'Kariakoo',
    },
    managerToken,
  );
  const attendantToken = await login(base, attendant.phoneNumber, attendant.password);
  await call('POST', '/attendant/request-float', { amount: 1_000_000 }, attendantToken);
  await call('POST', '/manager/assign-float', { attendantId: attendant.userId, amount: 1_000_000 }, managerToken);

  // The other cards of the manager go in directly (registering 1,000 through the API measures nothing here).
  const db = new pg.Client({ connectionString: deployment.databaseUrl });
  await db.connect();
  await db.query(
    `INSERT INTO cards (card_id, esp_id, holder_first_name, holder_last_name, card_type, balance, registered_by)
     SELECT 'BENCH-' || lpad(i::text, 6, '0'), $1, 'Bench', 'Holder', 'household', 100, $2 FROM generate_series(1, $3) i`,
    [machines[0].espId, attendant.userId, CARDS - 1],
  );
  await db.end();
  const cardId = `BENCH-TOPUP-${randomBytes(3).toString('hex').toUpperCase()}`;
  await call(
    'POST',
    '/att/add/user/card',
    {
      card_id: cardId,
      card_holder_first_name: 'Asha',
      card_holder_last_name: 'Mwita',
      phoneNumber: '+255712345678',
      card_balance: 10,
      card_type: 'household',
    },
    attendantToken,
  );

  console.log(`connecting ${MACHINES} machines …`);
  let fullLists = 0;
  let deltas = 0;
  for (const m of machines) {
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${front.mqttPort}`, {
      clientId: m.espId,
      username: m.espId,
      password: m.deviceKey,
      protocolVersion: 4,
      reconnectPeriod: 0,
    });
    const held = { version: 0, cards: new Map() };
    const ack = () =>
      client.publish(buildCardsAckTopic(m.espId), JSON.stringify({ version: held.version }), { qos: 1 });
    client.on('message', (topic, raw) => {
      const p = JSON.parse(raw.toString());
      if (topic === buildCardsTopic(m.espId)) {
        fullLists++;
        if (p.version <= held.version) return;
        held.version = p.version;
        held.cards = new Map(p.cards.map((c) => [c.cardId, c.balance]));
      } else {
        deltas++;
        if (p.baseVersion !== held.version) return;
        for (const c of p.upserts) held.cards.set(c.cardId, c.balance);
        for (const id of p.removals) held.cards.delete(id);
        held.version = p.version;
      }
      ack();
    });
    await client.subscribeAsync([buildCardsTopic(m.espId), buildCardsDeltaTopic(m.espId)], {
      qos: 1,
    });
    ack();
    clients.push({ client, held });
  }
  await waitUntil(() => clients.every((c) => c.held.cards.size === CARDS), 'every machine holding every card', 300_000);
  console.log(`every machine holds ${CARDS} cards (${fullLists} full lists received so far)`);
  await new Promise((r) => setTimeout(r, 3000));

  const allReached = [];
  const perMachine = [];
  let balance = 10;
  const deltasBefore = deltas;
  const fullBefore = fullLists;
  for (let i = 0; i < CHANGES; i++) {
    const answer = await call('POST', `/att/cards/${cardId}/top-up`, { amount: 1 }, attendantToken);
    const changedAt = performance.now();
    balance = answer.card_balance;
    const reachedAt = new Array(clients.length).fill(0);
    await waitUntil(
      () => {
        let all = true;
        clients.forEach((c, k) => {
          if (reachedAt[k]) return;
          if (c.held.cards.get(cardId) === balance) reachedAt[k] = performance.now();
          else all = false;
        });
        return all;
      },
      `change ${i + 1} at all ${clients.length} machines`,
      60_000,
    );
    const seconds = reachedAt.map((t) => (t - changedAt) / 1000);
    perMachine.push(...seconds);
    allReached.push(Math.max(...seconds));
    console.log(`change ${i + 1}: all ${clients.length} lists in ${Math.max(...seconds).toFixed(2)} s`);
    // Changes 1–3 s apart at random, so that they fall anywhere in the 2 s flush interval (a fixed
    // spacing would lock onto its phase); a burst would be batched into one delta anyway.
    await new Promise((r) => setTimeout(r, 1000 + Math.random() * 2000));
  }
  const r2 = (v) => Math.round(v * 100) / 100;
  report({
    name: 'card-lists',
    figures: {
      'top-up → new balance in all lists (s)': {
        p50: r2(percentile(allReached, 50)),
        max: r2(Math.max(...allReached)),
      },
      'top-up → new balance in one list (s)': {
        p50: r2(percentile(perMachine, 50)),
        p95: r2(percentile(perMachine, 95)),
        max: r2(Math.max(...perMachine)),
      },
      machines: MACHINES,
      'cards per list': CARDS,
      changes: CHANGES,
      'deltas / full lists received while measuring': `${deltas - deltasBefore} / ${fullLists - fullBefore}`,
    },
    notes: `One manager with ${MACHINES} machines and ${CARDS} cards; api+broker and worker as two processes; lists flushed every 2 s; target: every list within 5 s: ${
      Math.max(...allReached) <= 5 ? 'met' : 'NOT met'
    }. Load average: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on ${cpus().length} cores.`,
  });
} finally {
  await Promise.all(clients.map((c) => c.client.endAsync(true).catch(() => undefined)));
  await deployment.teardown(procs);
}
