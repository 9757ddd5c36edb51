// The machines of the backfill benchmark: their sales, a machine emptying its backlog as firmware
// does, and the open-loop live load (docs/device-protocol.md, "Sales", "Sequence numbers",
// "Acknowledgements and durability").
import mqtt from 'mqtt';
import { randomUUID } from 'node:crypto';

/** Milliseconds on a clock that every process of the benchmark shares. */
export const now = () => performance.timeOrigin + performance.now();

export const salesTopic = (espId) => `wv/v1/machines/${espId}/sales`;
export const salesAckTopic = (espId) => `wv/v1/machines/${espId}/sales/ack`;

/**
 * Connects as a provisioned machine with a persistent session, as the simulator does. A refused or
 * dropped connection (no PUBACK: the broker could not queue the sale) is opened again after a second,
 * as firmware does, and mqtt.js then sends every publish not yet PUBACKed again. Gives up only when
 * the first connection has not been made in `giveUpMs`.
 */
export function connectMachine(port, espId, deviceKey, giveUpMs = 300_000) {
  const client = mqtt.connect(`mqtt://127.0.0.1:${port}`, {
    clientId: espId,
    username: espId,
    password: deviceKey,
    protocolVersion: 4,
    clean: false,
    keepalive: 60,
    reconnectPeriod: 1000,
    connectTimeout: 60_000,
  });
  let lastError = null;
  // Without a listener an 'error' (a reset socket, a refused CONNECT) would end the process.
  client.on('error', (error) => (lastError = error));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      client.end(true);
      reject(new Error(`${espId} could not connect in ${giveUpMs} ms: ${lastError?.message ?? 'no answer'}`));
    }, giveUpMs);
    client.once('connect', () => {
      clearTimeout(timer);
      resolve(client);
    });
  });
}

/** The n-th sale of a machine: a third on cards, every water type and four volumes; `seq` is n + 1. */
export function sale(n, extra = {}) {
  const volume = [1, 5, 10, 20][n % 4];
  return {
    eventId: randomUUID(),
    kind: n % 3 ? 'coin' : 'card',
    price: volume * 40,
    volume,
    waterType: ['pure', 'fresh', 'cold'][n % 3],
    ...(n % 3 ? {} : { cardId: `CARD-${n % 50}` }),
    seq: n + 1,
    ...extra,
  };
}

/**
 * What a machine wrote to flash while it had no connection: `count` sales with `offline: true`, seq
 * 1…count, their times spread evenly over the `minutes` before `now` (oldest first).
 */
export function offlineBacklog(count, minutes, now = Date.now()) {
  const span = minutes * 60_000;
  return Array.from({ length: count }, (_, n) =>
    sale(n, { offline: true, time: new Date(now - span + Math.floor(((n + 1) * span) / (count + 1))).toISOString() }),
  );
}

/**
 * A machine back from a partition, as firmware behaves: connect, subscribe to its `sales/ack`, publish
 * the backlog oldest first in arrays of `arraySize`, the next array once the previous one is PUBACKed,
 * then wait until every sale is in a `sales/ack` (committed in PostgreSQL: the firmware may forget it).
 * A sale whose `sales/ack` has not come `resendAfterMs` after the last progress is sent again (the
 * server stores it once). Resolves with its CONNACK wait and the PUBACK latency of each array (ms),
 * the times (`now()`) its last array was PUBACKed and its last sale acknowledged, and how often its
 * connection dropped and how many sales it sent again. With `go`, it calls `ready()` once connected
 * and subscribed and publishes only when `go` resolves.
 */
export async function emptyBacklog({ port, espId, deviceKey, backlog, arraySize, resendAfterMs = 60_000, ready, go }) {
  const t0 = performance.now();
  const client = await connectMachine(port, espId, deviceKey);
  const connectedMs = performance.now() - t0;
  let drops = 0;
  client.on('close', () => drops++);
  const unacked = new Set(backlog.map((s) => s.eventId));
  let allAcked;
  const acked = new Promise((resolve) => (allAcked = resolve));
  client.on('message', (topic, payload) => {
    for (const id of JSON.parse(payload.toString()).eventIds) unacked.delete(id);
    if (unacked.size === 0) allAcked();
  });
  await client.subscribeAsync(salesAckTopic(espId), { qos: 1 });
  // Optionally the whole fleet connects before any machine publishes (BENCH_BACKFILL_CONNECT_FIRST).
  ready?.();
  await go;
  const pubackMs = [];
  for (let i = 0; i < backlog.length; i += arraySize) {
    const sent = performance.now();
    await client.publishAsync(salesTopic(espId), JSON.stringify(backlog.slice(i, i + arraySize)), { qos: 1 });
    pubackMs.push(performance.now() - sent);
  }
  const published = now();
  let resent = 0;
  /** [eventId, when first sent again (`now()`)] */
  const resends = [];
  for (;;) {
    const before = unacked.size;
    const timer = new Promise((r) => setTimeout(r, resendAfterMs).unref());
    if ((await Promise.race([acked.then(() => 'acked'), timer])) === 'acked') break;
    if (unacked.size < before) continue;
    const again = backlog.filter((s) => unacked.has(s.eventId));
    const at = now();
    for (const s of again) if (!resends.some(([id]) => id === s.eventId)) resends.push([s.eventId, at]);
    for (let i = 0; i < again.length; i += arraySize) {
      await client.publishAsync(salesTopic(espId), JSON.stringify(again.slice(i, i + arraySize)), { qos: 1 });
    }
    resent += again.length;
  }
  return { client, connectedMs, pubackMs, published, acked: now(), drops, resent, resends };
}

/**
 * Open-loop live load: sale k of the run is due at `started + k / rate` seconds, on machine
 * k mod machines, whatever the broker does; PUBACK latency counts from the due time, so a server
 * that falls behind shows its queueing in the latency instead of slowing the load (as in
 * bench/ingest.bench.mjs). Each latency is tagged with the phase `phaseAt(dueAt)` names; the
 * `sales/ack` of each sale is timed from the same due time.
 */
export function liveLoad({ clients, espIds, rate, phaseAt }) {
  const puback = new Map();
  const ack = new Map();
  /** [due time (performance.now()), PUBACK latency] of every live sale, for a timeline. */
  const timeline = [];
  const record = (map, phase, ms) => (map.get(phase) ?? map.set(phase, []).get(phase)).push(ms);
  const due = new Map();
  const sent = espIds.map(() => 0);
  clients.forEach((client) =>
    client.on('message', (_topic, payload) => {
      const now = performance.now();
      for (const id of JSON.parse(payload.toString()).eventIds) {
        const d = due.get(id);
        if (d === undefined) continue;
        due.delete(id);
        record(ack, d.phase, now - d.at);
      }
    }),
  );
  let running = true;
  let pubacked = 0;
  const inFlight = new Set();
  const started = performance.now();
  const run = (async () => {
    let k = 0;
    while (running) {
      const dueNow = Math.floor(((performance.now() - started) / 1000) * rate);
      for (; k < dueNow; k++) {
        const i = k % clients.length;
        const dueAt = started + (k / rate) * 1000;
        const phase = phaseAt(dueAt);
        const s = sale(sent[i]++);
        due.set(s.eventId, { at: dueAt, phase });
        const p = clients[i].publishAsync(salesTopic(espIds[i]), JSON.stringify(s), { qos: 1 }).then(() => {
          record(puback, phase, performance.now() - dueAt);
          timeline.push([dueAt, performance.now() - dueAt]);
          pubacked++;
          inFlight.delete(p);
        });
        inFlight.add(p);
      }
      await new Promise((r) => setTimeout(r, 2));
    }
    await Promise.all(inFlight);
  })();
  return {
    get pubacked() {
      return pubacked;
    },
    /** Sales published to each machine so far (its highest seq). */
    sent,
    puback,
    ack,
    timeline,
    /** Stops scheduling and resolves once every published sale is PUBACKed. */
    async stop() {
      running = false;
      await run;
    },
  };
}
