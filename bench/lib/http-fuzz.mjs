// The HTTP fuzzer's loop and oracles. Requests go one at a time so that every refused (4xx) request
// is bracketed by checksums of the tables it must not write. Oracles, per request:
// - no 5xx, no dropped connection;
// - no leak: a response never carries a marker its caller may not see (unless the request itself
//   named it), nor a stored secret;
// - no cross-tenant acceptance: a tenant's caller naming the other tenant's resource never gets a 2xx;
// - no write from a refused request: the checksums before and after a 4xx are equal (a change is
//   replayed alone to rule out the late write of an earlier accepted request).
import { createRandom } from './prng.mjs';
import { buildCallers, createAttendant, hiddenMarkers, login } from './http-fuzz-seed.mjs';
import { nextRequest, operationsOf } from './http-fuzz-requests.mjs';

/** Tables a refused request must never write (ledger, users, devices, cards, float, config, sales). */
export const GUARDED_TABLES = [
  'users',
  'devices',
  'mac_announcements',
  'cards',
  'ledger_entries',
  'float_accounts',
  'float_requests',
  'tariffs',
  'wifi_credentials',
  'sales',
  'sales_daily',
  'sales_monthly',
];

export const checksumTiming = { calls: 0, ms: 0 };

export async function tableChecksum(db) {
  const started = performance.now();
  const { rows: present } = await db.query(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ANY($1)`,
    [GUARDED_TABLES],
  );
  const sql = present
    .map(
      ({ table_name: t }) =>
        `SELECT '${t}' AS t, md5(coalesce(string_agg(md5(x::text), '' ORDER BY md5(x::text)), '')) AS h FROM ${t} x`,
    )
    .join(' UNION ALL ');
  const { rows } = await db.query(sql);
  checksumTiming.calls++;
  checksumTiming.ms += performance.now() - started;
  return Object.fromEntries(rows.map((r) => [r.t, r.h]));
}

const changedTables = (a, b) => Object.keys(b).filter((t) => a[t] !== b[t]);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Waits until the checksums hold still (the sale worker commits a 202's rows a moment later). */
async function settledChecksum(db, maxMs = 5000) {
  let last = await tableChecksum(db);
  const until = Date.now() + maxMs;
  while (Date.now() < until) {
    await sleep(60);
    const next = await tableChecksum(db);
    if (changedTables(last, next).length === 0) return next;
    last = next;
  }
  return last;
}

async function send(baseUrl, req) {
  const started = performance.now();
  try {
    const res = await fetch(`${baseUrl}${req.path}`, {
      method: req.method,
      headers: req.headers,
      body: req.method === 'GET' || req.method === 'HEAD' ? undefined : req.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(30_000),
    });
    const buf = Buffer.from(await res.arrayBuffer());
    return {
      status: res.status,
      type: res.headers.get('content-type') ?? '',
      text: buf.toString('utf8'),
      ms: performance.now() - started,
    };
  } catch (error) {
    return {
      status: 0,
      type: '',
      text: String(error?.cause?.code ?? error?.message ?? error),
      ms: performance.now() - started,
    };
  }
}

function describe(req, res, extra = {}) {
  const body = req.body === undefined ? undefined : Buffer.isBuffer(req.body) ? req.body.toString('hex') : req.body;
  return {
    op: req.op.id,
    caller: req.caller.name,
    method: req.method,
    path: req.path.length > 600 ? `${req.path.slice(0, 600)}…` : req.path,
    body: body && body.length > 1500 ? `${body.slice(0, 1500)}… (${body.length} chars)` : body,
    status: res.status,
    response: res.text.slice(0, 600),
    ...extra,
  };
}

/**
 * Runs `count` requests. `world` comes from seedFuzzWorld; `doc` is the OpenAPI document read from
 * the running program (so routes added later are fuzzed too); `db` a pg client on its database.
 * `clearLoginLocks()` deletes the login failure counters (the fuzzer fails sign-ins all the time).
 */
export async function runHttpFuzz({ baseUrl, db, world, doc, count, seed, clearLoginLocks, onProgress = undefined }) {
  const rng = createRandom(seed);
  const ops = operationsOf(doc);
  const stats = {
    seed,
    requests: 0,
    byClass: { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0, 'no response': 0 },
    byStatus: {},
    serverErrors: 0,
    connectionErrors: 0,
    leaks: 0,
    crossTenantAccepted: 0,
    refusedChecked: 0,
    writesFromRefused: 0,
    unconfirmedChanges: 0,
    operations: ops.length,
    slowest: { ms: 0 },
    callerRefreshes: 0,
  };
  const perOp = Object.fromEntries(ops.map((o) => [o.id, { requests: 0, '2xx': 0, '4xx': 0, '5xx': 0 }]));
  const findings = [];
  const finding = (kind, req, res, extra) => {
    if (findings.length < 500) findings.push({ kind, ...describe(req, res, extra) });
  };
  let refreshedAt = Date.now();

  // Sessions end (a fuzzed DELETE may remove the attendant; tokens live 20 minutes): sign in again.
  const refreshCallers = async () => {
    await clearLoginLocks?.();
    world.admin.token = await login(world.api, world.admin.identifier, world.admin.password);
    for (const label of ['A', 'B']) {
      const t = world[label];
      t.manager.token = await login(world.api, t.manager.identifier, t.manager.password);
      try {
        t.attendant.token = await login(world.api, t.attendant.identifier, t.attendant.password);
      } catch {
        // Removed by its manager (a legitimate fuzzed call): give the tenant a new attendant.
        let created = null;
        for (const device of t.devices) {
          created = await createAttendant(world.api, t, device.espId, rng).catch(() => null);
          if (created) break;
        }
        if (created) {
          t.attendant = created;
          t.markers.attendant.push(...created.markers);
        }
      }
    }
    world.callers = buildCallers(world);
    stats.callerRefreshes++;
    refreshedAt = Date.now();
  };

  let before = await settledChecksum(db);
  for (let i = 0; i < count; i++) {
    if (i > 0 && (i % 1000 === 0 || Date.now() - refreshedAt > 8 * 60_000)) {
      if (Date.now() - refreshedAt > 8 * 60_000 || (await attendantGone(world))) await refreshCallers();
      else await clearLoginLocks?.();
      // Fuzzed card loads spend the attendants' float: top it up so that money calls keep reaching
      // their success path. Outside the checksum brackets, like every maintenance call.
      await replenishFloat(world);
      before = await settledChecksum(db);
    }
    const req = nextRequest(rng, ops, world);
    const res = await send(baseUrl, req);
    stats.requests++;
    stats.requestMs = (stats.requestMs ?? 0) + res.ms;
    stats.byStatus[res.status] = (stats.byStatus[res.status] ?? 0) + 1;
    const cls = res.status === 0 ? 'no response' : `${Math.floor(res.status / 100)}xx`;
    stats.byClass[cls] = (stats.byClass[cls] ?? 0) + 1;
    const o = perOp[req.op.id];
    o.requests++;
    if (o[cls] !== undefined) o[cls]++;
    if (res.ms > stats.slowest.ms) stats.slowest = { ms: Math.round(res.ms), op: req.op.id, status: res.status };

    if (res.status >= 500) {
      stats.serverErrors++;
      finding('5xx', req, res);
    }
    if (res.status === 0) {
      stats.connectionErrors++;
      finding('no response', req, res);
    }

    const bodyText = typeof req.body === 'string' ? req.body : (req.body?.toString('utf8') ?? '');
    const requestText = `${decodeURIComponentSafe(req.path)} ${bodyText}`;
    const hidden = hiddenMarkers(world, req.caller);
    // What the operation reads: its path, and its body only where it declares one. A body sent to an operation
    // without one (POST /auth/refresh) is ignored, so naming another tenant's card in it asks for nothing.
    const readText = req.op.body ? requestText : decodeURIComponentSafe(req.path);
    const named = hiddenMarkers(world, req.caller, 'outOfScope').filter(([m]) => readText.includes(m));
    // Public routes (sign-in) answer whoever asks; every other 2xx must stay in the caller's scope.
    const scoped = req.caller.role !== 'none' && !req.op.access.includes('public');
    if (res.status >= 200 && res.status < 300 && scoped && named.length) {
      stats.crossTenantAccepted++;
      finding('cross-tenant request accepted', req, res, { named: named.map(([, owner]) => owner) });
    }
    if (!/spreadsheet|octet-stream/.test(res.type)) {
      const leaked = hidden.filter(([m]) => res.text.includes(m) && !requestText.includes(m));
      const secrets = world.secrets.filter((s) => res.text.includes(s) && !requestText.includes(s));
      if (leaked.length || secrets.length || res.text.includes('$argon2')) {
        stats.leaks++;
        finding('leak', req, res, { leaked: leaked.map(([, owner]) => owner), secrets: secrets.length });
      }
    }

    if (res.status >= 400 && res.status < 500) {
      stats.refusedChecked++;
      const after = await tableChecksum(db);
      const changed = changedTables(before, after);
      if (changed.length) {
        // Maybe the late write of an earlier accepted request: settle, then replay this one alone.
        const settled = await settledChecksum(db);
        const replay = await send(baseUrl, req);
        const again = await settledChecksum(db, 1500);
        const replayChanged = changedTables(settled, again);
        if (replay.status >= 400 && replay.status < 500 && replayChanged.length) {
          stats.writesFromRefused++;
          finding('write from a refused request', req, res, { tables: replayChanged, replayStatus: replay.status });
        } else {
          stats.unconfirmedChanges++;
        }
        before = again;
      } else {
        before = after;
      }
    } else {
      before = res.status === 202 ? await settledChecksum(db) : await tableChecksum(db);
    }
    if (i % 250 === 0) onProgress?.(stats);
  }
  return { stats, perOp, findings };
}

async function replenishFloat(world) {
  const post = (path, token, body) =>
    fetch(`${world.api}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    }).catch(() => undefined);
  for (const label of ['A', 'B']) {
    const t = world[label];
    await post('/attendant/request-float', t.attendant.token, { amount: 50000 });
    await post('/manager/assign-float', t.manager.token, { attendantId: t.attendant.userId, amount: 50000 });
  }
}

async function attendantGone(world) {
  for (const label of ['A', 'B']) {
    const res = await fetch(`${world.api}/user/info`, {
      headers: { authorization: `Bearer ${world[label].attendant.token}` },
    });
    if (res.status === 401) return true;
  }
  return false;
}

function decodeURIComponentSafe(s) {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
