// The MQTT fuzzer: raw TCP (and some WebSocket) connections carrying mutated packet sequences and
// the known crash inputs, against the program's broker, while honest mqtt.js machines keep selling
// QoS 1 and waiting for sales/ack. Used by bench/fuzz-mqtt.bench.mjs and the integration test.
import net from 'node:net';
import mqtt from 'mqtt';
import { WebSocket } from 'ws';
import { buildSalesAckTopic, buildSalesTopic } from '@wv/contracts';
import { createRandom } from './prng.mjs';
import { KNOWN_CRASH_INPUTS, mutate, validSequence } from './mqtt-fuzz-packets.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** A guard timeout that never keeps the process (or Jest) alive by itself. */
const guard = (ms) => new Promise((r) => setTimeout(r, ms).unref());

/** 12 upper-case hex digits: provisioning client ids. */
export function fuzzMacs(rng, n = 8) {
  return Array.from({ length: n }, () => rng.bytes(6).toString('hex').toUpperCase());
}

/**
 * Sends one input over one connection and resolves once the broker closed it or the linger time
 * passed. Writes are split into random chunks so that the parser sees packets cut anywhere.
 */
function sendOnce(target, input, rng, stats) {
  return new Promise((resolve) => {
    const linger = rng.weighted([
      [8, rng.range(20, 150)],
      [2, rng.range(300, 1000)],
      [1, rng.range(2000, 4000)],
    ]);
    const bytes = Buffer.concat(input.packets);
    const chunks = [];
    const mode = rng.weighted([
      [14, 'whole'],
      [5, 'chunks'],
      [1, 'trickle'],
    ]);
    if (mode === 'whole' || bytes.length > 64 * 1024) chunks.push(bytes);
    else if (mode === 'trickle')
      for (let i = 0; i < Math.min(bytes.length, 200); i++) chunks.push(bytes.subarray(i, i + 1));
    else for (let i = 0; i < bytes.length;) chunks.push(bytes.subarray(i, (i += rng.range(1, 64))));
    let closedByPeer = false;
    let settled = false;
    let received = Buffer.alloc(0);
    const finish = (destroy) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      stats.connections++;
      if (closedByPeer) stats.closedByBroker++;
      if (received[0] === 0x20 && received.length >= 4) {
        stats.connacks[received[3]] = (stats.connacks[received[3]] ?? 0) + 1;
      }
      stats.bytesReceived += received.length;
      destroy();
      resolve();
    };
    const onData = (data) => {
      if (received.length < 64) received = Buffer.concat([received, Buffer.from(data)]);
      else stats.bytesReceived += data.length;
    };
    const writeAll = async (write, isOpen) => {
      for (const chunk of chunks) {
        if (!isOpen()) return;
        write(chunk);
        stats.bytesSent += chunk.length;
        if (mode !== 'whole') await sleep(mode === 'trickle' ? 5 : rng.int(3));
      }
      stats.packetsSent += input.packets.length;
    };
    let timer;
    if (input.transport === 'ws') {
      const ws = new WebSocket(`ws://127.0.0.1:${target.httpPort}${target.wsPath}`, 'mqtt');
      ws.on('error', () => undefined);
      ws.on('message', onData);
      ws.on('close', () => {
        closedByPeer = !settled;
        finish(() => undefined);
      });
      ws.on('open', () => {
        clearTimeout(timer);
        void writeAll(
          (chunk) => ws.send(chunk),
          () => ws.readyState === WebSocket.OPEN,
        );
        timer = setTimeout(() => finish(() => ws.terminate()), linger);
      });
      timer = setTimeout(() => finish(() => ws.terminate()), 5000);
      return;
    }
    const socket = net.connect({ host: target.host, port: target.mqttPort, localAddress: input.localAddress });
    socket.on('error', () => undefined);
    socket.on('data', onData);
    socket.on('close', () => {
      closedByPeer = !settled;
      finish(() => undefined);
    });
    socket.on('connect', () => {
      void writeAll(
        (chunk) => socket.write(chunk),
        () => !socket.destroyed,
      );
      clearTimeout(timer);
      timer = setTimeout(() => finish(() => (rng.chance(0.5) ? socket.destroy() : socket.end())), linger);
    });
    timer = setTimeout(() => finish(() => socket.destroy()), 5000);
  });
}

/**
 * Runs the fuzzer until `durationMs` passes or `isAlive()` turns false.
 * target: {host, mqttPort, httpPort, wsPath}; identities: {fuzz: [{espId, deviceKey}], honest: [{espId}], macs}.
 * Returns the counts and the most recent inputs (hex), which replay a crash.
 */
export async function runMqttFuzz({
  target,
  identities,
  durationMs,
  seed,
  concurrency = 16,
  isAlive,
  onProgress = undefined,
}) {
  const rng = createRandom(seed);
  const stats = {
    seed,
    packetsSent: 0,
    connections: 0,
    bytesSent: 0,
    bytesReceived: 0,
    closedByBroker: 0,
    connacks: {},
    knownCrashInputsReplayed: 0,
    mutatedSequences: 0,
    validSequences: 0,
  };
  const recent = [];
  const localAddresses = ['127.0.0.1', '127.0.0.2', '127.0.0.3', '127.0.0.4'];
  const deadline = Date.now() + durationMs;
  let corpusIndex = 0;
  let crashed = false;
  const nextInput = (r) => {
    let packets;
    let name;
    // Every known crash input first, then one in ten connections replays one.
    if (corpusIndex < KNOWN_CRASH_INPUTS.length || r.chance(0.1)) {
      const [entry, build] = KNOWN_CRASH_INPUTS[corpusIndex++ % KNOWN_CRASH_INPUTS.length];
      name = entry;
      packets = build(identities, r);
      stats.knownCrashInputsReplayed++;
    } else if (r.chance(0.85)) {
      packets = mutate(r, validSequence(r, identities));
      name = 'mutated';
      stats.mutatedSequences++;
    } else {
      packets = validSequence(r, identities);
      name = 'valid';
      stats.validSequences++;
    }
    return {
      name,
      packets: packets.filter(Boolean),
      transport: r.chance(0.1) ? 'ws' : 'tcp',
      localAddress: r.pick(localAddresses),
    };
  };
  const worker = async (r) => {
    while (Date.now() < deadline && !crashed) {
      const input = nextInput(r);
      recent.push({ name: input.name, transport: input.transport, hex: input.packets.map((p) => p.toString('hex')) });
      if (recent.length > 200) recent.shift();
      await sendOnce(target, input, r, stats);
    }
  };
  const watchdog = (async () => {
    while (Date.now() < deadline && !crashed) {
      await sleep(1000);
      if (!(await isAlive())) crashed = true;
      onProgress?.(stats);
    }
  })();
  await Promise.all([...Array.from({ length: concurrency }, () => worker(rng.fork())), watchdog]);
  return { stats, crashed, recent };
}

/** Replays saved inputs (from a crash file) one connection each, in order. */
export async function replayInputs(target, inputs) {
  const rng = createRandom(1);
  const stats = { packetsSent: 0, connections: 0, bytesSent: 0, bytesReceived: 0, closedByBroker: 0, connacks: {} };
  for (const input of inputs) {
    const packets = input.hex.map((h) => Buffer.from(h, 'hex'));
    await sendOnce(target, { ...input, packets, localAddress: '127.0.0.1' }, rng, stats);
  }
  return stats;
}

/**
 * Honest machines: real mqtt.js clients with valid keys, each publishing QoS 1 sales and keeping an
 * unacknowledged sale until it gets its PUBACK (as the firmware keeps it in flash), and recording
 * every `sales/ack`.
 */
export function startHonestFleet({ url, machines, salesPerSecond = 5 }) {
  const pubacked = new Map(machines.map((m) => [m.espId, new Set()]));
  const acked = new Map(machines.map((m) => [m.espId, new Set()]));
  const state = { published: 0, pubacked: 0, publishRetries: 0, disconnects: 0 };
  let running = true;
  const clients = [];
  const loops = machines.map(async (m) => {
    const client = mqtt.connect(url, {
      clientId: m.espId,
      username: m.espId,
      password: m.deviceKey,
      protocolVersion: 4,
      keepalive: 30,
      reconnectPeriod: 500,
      connectTimeout: 10_000,
    });
    clients.push(client);
    client.on('error', () => undefined);
    client.on('close', () => running && state.disconnects++);
    // As the firmware does: subscribe to sales/ack before the first sale, on every (clean) connect.
    let subscribed;
    const subscribedOnce = new Promise((resolve) => (subscribed = resolve));
    client.on('connect', () => client.subscribe(buildSalesAckTopic(m.espId), { qos: 1 }, () => subscribed()));
    client.on('message', (_topic, payload) => {
      try {
        for (const id of JSON.parse(payload.toString()).eventIds ?? []) acked.get(m.espId).add(id);
      } catch {
        // not ours to judge here
      }
    });
    await Promise.race([subscribedOnce, guard(30_000)]);
    let n = 0;
    let pending = null;
    while (running) {
      const eventId = pending ?? `honest-${n++}`;
      const sale = { eventId, kind: 'coin', price: 500, volume: 1, waterType: 'pure' };
      state.published++;
      const puback = client.publishAsync(buildSalesTopic(m.espId), JSON.stringify(sale), { qos: 1 }).then(() => {
        if (!pubacked.get(m.espId).has(eventId)) state.pubacked++;
        pubacked.get(m.espId).add(eventId);
      });
      puback.catch(() => undefined);
      const ok = await Promise.race([puback.then(() => true), guard(15_000).then(() => false)]).catch(() => false);
      if (ok) pending = null;
      else {
        pending = eventId;
        state.publishRetries++;
      }
      await sleep(1000 / salesPerSecond);
    }
  });
  return {
    state,
    pubacked,
    acked,
    /** Stops selling, waits up to `ackTimeoutMs` for the last sales/acks, and disconnects. */
    async stop(ackTimeoutMs = 30_000) {
      running = false;
      await Promise.all(loops);
      const until = Date.now() + ackTimeoutMs;
      while (Date.now() < until && [...pubacked].some(([id, set]) => [...set].some((e) => !acked.get(id).has(e)))) {
        await sleep(200);
      }
      await Promise.all(clients.map((c) => c.endAsync(true).catch(() => undefined)));
      let unacked = 0;
      for (const [id, set] of pubacked) for (const e of set) if (!acked.get(id).has(e)) unacked++;
      return { ...state, salesAckMissing: unacked };
    },
  };
}

/** PUBACKed sales not (yet) in PostgreSQL, polled until none is missing or the timeout. */
export async function missingSales(db, pubacked, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await db.query('SELECT esp_id, event_id FROM sales WHERE esp_id = ANY($1)', [
      [...pubacked.keys()],
    ]);
    const stored = new Set(rows.map((r) => `${r.esp_id}/${r.event_id}`));
    const missing = [];
    for (const [espId, set] of pubacked)
      for (const e of set) if (!stored.has(`${espId}/${e}`)) missing.push(`${espId}/${e}`);
    if (missing.length === 0 || Date.now() > until) return missing;
    await sleep(500);
  }
}
