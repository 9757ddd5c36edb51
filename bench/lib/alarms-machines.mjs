// A child process of bench/alarms.bench.mjs holding thousands of machines as raw mqtt-packet clients
// (an mqtt.js client costs several times the memory and CPU, and this box runs the server too), like
// bench/lib/idle-machines.mjs. Each machine subscribes to its sales/ack and config, publishes
// telemetry every `periodMs` (QoS 1, docs/device-protocol.md, "Telemetry") and takes its share of
// the sales. Driven over IPC; argv[2] is {port, secret, from, to, addresses, tag}.
import net from 'node:net';
import mqttPacket from 'mqtt-packet';
import { buildConfigTopic, buildSalesAckTopic, buildSalesTopic, buildTelemetryTopic } from '@wv/contracts';
import { loadEspId, loadKey } from './load-fleet.mjs';

const { port, secret, from, to, addresses, tag } = JSON.parse(process.argv[2]);
const KEEPALIVE = 600;
const gen = (packet) => mqttPacket.generate(packet, { protocolVersion: 4 });

/** One machine: its socket once subscribed, its in-flight QoS 1 publishes and its telemetry state. */
class Machine {
  constructor(i) {
    this.i = i;
    this.espId = loadEspId(i);
    this.socket = null;
    this.connecting = false;
    /** Told to stay disconnected (the offline phases). */
    this.down = false;
    this.nextId = 1;
    this.inflight = new Map();
    this.sales = 0;
    this.tank = 40 + Math.random() * 50;
    this.coins = 10 + Math.random() * 40;
  }

  get online() {
    return this.socket !== null;
  }

  /** Publishes at QoS 1; resolves true at PUBACK, false when the session ends first. */
  publish(topic, payload) {
    if (!this.socket) return Promise.resolve(false);
    let id = this.nextId;
    while (this.inflight.has(id)) id = (id % 65535) + 1;
    this.nextId = (id % 65535) + 1;
    return new Promise((resolve) => {
      this.inflight.set(id, resolve);
      this.socket.write(gen({ cmd: 'publish', topic, payload, qos: 1, messageId: id }));
    });
  }

  settle(ok) {
    for (const resolve of this.inflight.values()) resolve(ok);
    this.inflight.clear();
  }

  /** CONNECT, SUBSCRIBE; resolves {ok, why}. */
  connect() {
    this.connecting = true;
    return new Promise((resolve) => {
      const socket = net.connect({ port, host: '127.0.0.1', localAddress: addresses[this.i % addresses.length] });
      const parser = mqttPacket.parser({ protocolVersion: 4 });
      let done = false;
      const finish = (result) => {
        if (done) return;
        done = true;
        this.connecting = false;
        clearTimeout(timer);
        if (!result.ok) socket.destroy();
        resolve(result);
      };
      const timer = setTimeout(() => finish({ ok: false, why: 'timeout' }), 30_000);
      socket.setNoDelay(true);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        if (this.socket === socket) {
          this.socket = null;
          this.settle(false);
        }
        finish({ ok: false, why: 'closed' });
      });
      socket.on('data', (data) => parser.parse(data));
      parser.on('packet', (packet) => {
        if (packet.cmd === 'connack') {
          if (packet.returnCode !== 0) return finish({ ok: false, why: `connack ${packet.returnCode}` });
          socket.write(
            gen({
              cmd: 'subscribe',
              messageId: 65535,
              subscriptions: [
                { topic: buildSalesAckTopic(this.espId), qos: 1 },
                { topic: buildConfigTopic(this.espId), qos: 1 },
              ],
            }),
          );
        } else if (packet.cmd === 'suback') {
          this.socket = socket;
          finish({ ok: true });
        } else if (packet.cmd === 'puback') {
          const resolve = this.inflight.get(packet.messageId);
          this.inflight.delete(packet.messageId);
          resolve?.(true);
        } else if (packet.cmd === 'publish' && packet.qos === 1) {
          // sales/ack and the retained config: acknowledged, as a machine does.
          socket.write(gen({ cmd: 'puback', messageId: packet.messageId }));
        }
      });
      socket.on('connect', () =>
        socket.write(
          gen({
            cmd: 'connect',
            clientId: this.espId,
            username: this.espId,
            password: Buffer.from(loadKey(secret, this.i)),
            keepalive: KEEPALIVE,
            clean: true,
          }),
        ),
      );
    });
  }

  /** A reading within every threshold: the fleet is healthy, so telemetry opens nothing. */
  telemetry() {
    this.tank = Math.min(95, Math.max(30, this.tank + (Math.random() - 0.5) * 4));
    this.coins = Math.min(80, this.coins + Math.random());
    return JSON.stringify({
      tankLevelPct: Math.round(this.tank * 10) / 10,
      tdsPpm: 120 + Math.round(Math.random() * 150),
      coldWaterTempC: Math.round((5 + Math.random() * 4) * 10) / 10,
      coinBoxPct: Math.round(this.coins * 10) / 10,
      errorCode: null,
    });
  }

  sale() {
    const volume = [1, 5, 10, 20][this.sales % 4];
    return JSON.stringify({
      eventId: `${tag}-${this.i}-${this.sales++}`,
      kind: 'coin',
      price: volume * 40,
      volume,
      waterType: ['pure', 'fresh', 'cold'][this.sales % 3],
      dispensed: volume,
    });
  }
}

const machines = [];
for (let i = from; i < to; i++) machines.push(new Machine(i));
const byIndex = new Map(machines.map((m) => [m.i, m]));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Connects every machine that is neither connected nor told to stay down, at `rate`/s, retrying each second. */
async function connectAll({ rate, deadlineMs }) {
  const pending = machines.filter((m) => !m.online && !m.down && !m.connecting);
  const result = { ok: 0, attempts: 0, failures: {} };
  const deadline = Date.now() + deadlineMs;
  const started = performance.now();
  let next = 0;
  let waiting = 0;
  const inflight = new Set();
  while ((pending.length || inflight.size || waiting) && Date.now() < deadline) {
    const due = Math.floor(((performance.now() - started) / 1000) * rate);
    while (pending.length && next < due && inflight.size < 1000) {
      const m = pending.shift();
      next++;
      result.attempts++;
      const p = m.connect().then((r) => {
        inflight.delete(p);
        if (r.ok) return void result.ok++;
        result.failures[r.why] = (result.failures[r.why] ?? 0) + 1;
        waiting++;
        setTimeout(() => {
          waiting--;
          if (!m.down) pending.push(m);
        }, 1000);
      });
      inflight.add(p);
    }
    await sleep(5);
  }
  result.seconds = (performance.now() - started) / 1000;
  return result;
}

// Telemetry: each machine every periodMs, at a phase of its own.
const telemetryStats = { sent: 0, acked: 0, skipped: 0 };
let telemetryTimer;
function startTelemetry(periodMs) {
  clearInterval(telemetryTimer);
  const start = Date.now();
  const due = machines.map(() => start + Math.random() * periodMs);
  telemetryTimer = setInterval(() => {
    const now = Date.now();
    machines.forEach((m, k) => {
      if (due[k] > now) return;
      due[k] += periodMs;
      if (!m.online) return void telemetryStats.skipped++;
      telemetryStats.sent++;
      void m.publish(buildTelemetryTopic(m.espId), m.telemetry()).then((ok) => ok && telemetryStats.acked++);
    });
  }, 100);
}

// Sales, open loop: sale k of this process is due at started + k / rate s, on a machine spread over
// the fleet; PUBACK latency counts from the due time, so a server that falls behind shows it.
let salesRun = null;
function startSales(rate) {
  const run = { rate, running: true, pubacked: 0, lost: 0, skipped: 0, latencies: [], inflight: new Set() };
  salesRun = run;
  const stride = 7919; // a prime: consecutive sales land on machines far apart
  const started = performance.now();
  let k = 0;
  run.loop = (async () => {
    while (run.running) {
      const due = Math.floor(((performance.now() - started) / 1000) * rate);
      for (; k < due; k++) {
        const m = machines[(k * stride) % machines.length];
        if (!m.online) {
          run.skipped++;
          continue;
        }
        const dueAt = started + (k / rate) * 1000;
        const p = m.publish(buildSalesTopic(m.espId), m.sale()).then((ok) => {
          run.inflight.delete(p);
          if (!ok) return void run.lost++;
          run.pubacked++;
          run.latencies.push(Math.round((performance.now() - dueAt) * 10) / 10);
        });
        run.inflight.add(p);
      }
      await sleep(2);
    }
    await Promise.all(run.inflight);
  })();
}
async function stopSales() {
  const run = salesRun;
  if (!run) return { pubacked: 0, lost: 0, skipped: 0, latencies: [] };
  salesRun = null;
  run.running = false;
  await run.loop;
  return { pubacked: run.pubacked, lost: run.lost, skipped: run.skipped, latencies: run.latencies };
}

// Sales, closed loop: `window` publishes in flight on each of the first `count` connected machines.
let saturation = null;
function startSaturation({ count, window }) {
  const run = { running: true, pubacked: 0, lost: 0 };
  const chosen = machines.filter((m) => m.online && !m.down).slice(0, count);
  run.loops = Promise.all(
    chosen.flatMap((m) =>
      Array.from({ length: window }, async () => {
        while (run.running && m.online) {
          if (await m.publish(buildSalesTopic(m.espId), m.sale())) run.pubacked++;
          else run.lost++;
        }
      }),
    ),
  );
  run.machines = chosen.length;
  saturation = run;
}
async function stopSaturation() {
  const run = saturation;
  saturation = null;
  if (!run) return { pubacked: 0, lost: 0, machines: 0 };
  run.running = false;
  await run.loops;
  return { pubacked: run.pubacked, lost: run.lost, machines: run.machines };
}

const pinger = setInterval(
  () => {
    for (const m of machines) m.socket?.write(gen({ cmd: 'pingreq' }));
  },
  (KEEPALIVE / 3) * 1000,
);
pinger.unref();

const inRange = (msg) => machines.filter((m) => m.i >= msg.from && m.i < msg.to);

process.on('message', async (msg) => {
  if (msg.cmd === 'connect') {
    process.send({ type: 'connected', ...(await connectAll(msg)) });
  } else if (msg.cmd === 'telemetry') {
    startTelemetry(msg.periodMs);
    process.send({ type: 'telemetry' });
  } else if (msg.cmd === 'sales') {
    if (msg.rate > 0) startSales(msg.rate);
    process.send({ type: 'sales', ...(msg.rate > 0 ? {} : await stopSales()) });
  } else if (msg.cmd === 'saturate') {
    if (msg.count > 0) startSaturation(msg);
    process.send({ type: 'saturate', ...(msg.count > 0 ? {} : await stopSaturation()) });
  } else if (msg.cmd === 'drop') {
    // The socket ends without DISCONNECT, as when a machine loses power: the broker sees the close.
    const dropped = [];
    for (const m of inRange(msg)) {
      m.down = true;
      if (!m.socket) continue;
      const socket = m.socket;
      m.socket = null;
      m.settle(false);
      socket.destroy();
      dropped.push([m.i, Date.now()]);
    }
    process.send({ type: 'dropped', dropped });
  } else if (msg.cmd === 'up') {
    for (const m of inRange(msg)) m.down = false;
    process.send({ type: 'up' });
  } else if (msg.cmd === 'count') {
    process.send({
      type: 'count',
      online: machines.filter((m) => m.online).length,
      telemetry: { ...telemetryStats },
    });
  } else if (msg.cmd === 'exit') {
    clearInterval(telemetryTimer);
    for (const m of machines) m.socket?.destroy();
    process.exit(0);
  }
});
process.send({ type: 'ready', machines: byIndex.size });
