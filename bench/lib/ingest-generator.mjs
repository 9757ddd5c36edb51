// A load generator process of the ingest benchmark (bench/ingest.bench.mjs), forked with
// `serialization: 'advanced'`. It plays a share of the fleet's machines over plain TCP with
// bench/lib/mqtt-lean.mjs (its CONNECT made by `mqtt-packet`, the codec of mqtt.js and Aedes; PUBLISH
// out and PUBACK in by hand), without a client library's stores and promises, so that
// the generator spends little of the CPU it shares with the server. It reports what it did spend.
//
// Messages from the parent:
//   { cmd: 'connect', port, machines: [{ espId, deviceKey }] }  → { ev: 'connected' }
//   { cmd: 'run', mode: 'open' | 'closed', rate, window, startAt, measureFrom, endAt, firstSale, timeline }
//                                                               → { ev: 'done', ... }  (see run())
//   { cmd: 'end' }                                              → closes its connections and exits
//
// Times are epoch milliseconds with fractions (performance.timeOrigin + performance.now()), comparable
// between the processes of one machine.
import { connect as tcpConnect } from 'node:net';
import { now, sale as saleOf } from './backfill-fleet.mjs';
import { DISCONNECT, machineConnect, PINGREQ, Qos1Sender, readPackets } from './mqtt-lean.mjs';

/** PUBLISH packets a connection may have unacknowledged: MQTT packet ids are 16 bits. */
const MAX_IN_FLIGHT = 60_000;

class Machine {
  constructor(espId, deviceKey) {
    this.espId = espId;
    this.deviceKey = deviceKey;
  }

  open(port, onPuback) {
    return new Promise((resolve, reject) => {
      const socket = tcpConnect({ host: '127.0.0.1', port, noDelay: true });
      this.socket = socket;
      /** Its sales in flight, each with the epoch ms its latency counts from. */
      this.sales = new Qos1Sender(socket, `wv/v1/machines/${this.espId}/sales`);
      readPackets(socket, (type, body) => {
        if (type === 4) {
          const from = this.sales.acknowledged(body.readUInt16BE(0));
          if (from !== undefined) onPuback(this, from);
        } else if (type === 2) {
          if (body[1] === 0) resolve();
          else reject(new Error(`${this.espId}: CONNACK ${body[1]}`));
        }
      });
      socket.once('error', reject);
      socket.on('close', () => {
        if (!this.ending) process.send?.({ ev: 'error', message: `${this.espId}: the broker closed the connection` });
      });
      socket.write(machineConnect({ espId: this.espId, deviceKey: this.deviceKey, clean: true }));
    });
  }

  /** Writes one sale unless too many are in flight; several in one turn of the event loop leave in one write. */
  publish(payload, from) {
    if (this.sales.inFlight >= MAX_IN_FLIGHT) return false;
    this.sales.send(payload, from);
    return true;
  }

  ping() {
    this.socket.write(PINGREQ);
  }

  close() {
    this.ending = true;
    this.socket.end(DISCONNECT);
  }
}

/** The n-th sale of the run, without `seq` like the machines before sequence numbers (the backfill bench has them). */
const sale = (n) => JSON.stringify(saleOf(n, { seq: undefined }));

let machines = [];
let phase = null;
let pingTimer;

function onPuback(machine, from) {
  const t = now();
  const p = phase;
  if (!p) return;
  p.pubacked++;
  p.lastPubackAt = t;
  if (from >= p.measureFrom) {
    p.latencies.push(t - from);
    if (p.timeline) p.dueTimes.push(from);
  }
  if (p.mode === 'closed' && t < p.endAt) send(machine, t);
  if (p.pubacked === p.sent && p.stopped) finish();
}

function send(machine, from) {
  const p = phase;
  if (!machine.publish(sale(p.firstSale + p.issued++), from)) return false;
  p.sent++;
  return true;
}

/**
 * Open loop: sale j of this generator is due at startAt + j / rate ms, on its machines in turn, whatever the
 * broker does; latency counts from the due time, so a server that falls behind shows it as latency. A sale
 * sent more than a millisecond after it was due was late: the generator reports how late, so that its own
 * lag is not taken for the server's.
 */
function openLoop() {
  const p = phase;
  const perMs = p.rate / 1000;
  const tick = () => {
    const t = now();
    const until = Math.min(t, p.endAt);
    const due = Math.floor((until - p.startAt) * perMs);
    for (; p.next < due; p.next++) {
      const dueAt = p.startAt + p.next / perMs;
      if (dueAt >= p.measureFrom) p.lateness.push(t - dueAt);
      if (!send(machines[p.next % machines.length], dueAt)) p.refusedLocally++;
    }
    if (t >= p.endAt) return stop();
    setTimeout(tick, 1);
  };
  tick();
}

/** Closed loop: `window` sales in flight per machine, the next sent as each PUBACK comes. */
function closedLoop() {
  const p = phase;
  const t = now();
  for (const machine of machines) for (let i = 0; i < p.window; i++) send(machine, t);
  setTimeout(stop, Math.max(0, p.endAt - now()));
}

function stop() {
  phase.stopped = true;
  if (phase.pubacked === phase.sent) finish();
}

function finish() {
  const p = phase;
  if (p.finished) return;
  p.finished = true;
  const cpu = process.cpuUsage(p.cpuAtMeasure);
  const measuredMs = Math.max(1, now() - p.measureFrom);
  phase = null;
  process.send({
    ev: 'done',
    sent: p.sent,
    pubacked: p.pubacked,
    lastPubackAt: p.lastPubackAt,
    latencies: Float64Array.from(p.latencies),
    dueTimes: Float64Array.from(p.dueTimes),
    lateness: Float64Array.from(p.lateness),
    refusedLocally: p.refusedLocally,
    cpuShare: (cpu.user + cpu.system) / 1000 / measuredMs,
  });
}

process.on('message', async (message) => {
  try {
    if (message.cmd === 'connect') {
      machines = message.machines.map((m) => new Machine(m.espId, m.deviceKey));
      await Promise.all(machines.map((m) => m.open(message.port, onPuback)));
      pingTimer = setInterval(() => machines.forEach((m) => m.ping()), 30_000);
      process.send({ ev: 'connected' });
    } else if (message.cmd === 'run') {
      phase = {
        ...message,
        next: 0,
        issued: 0,
        sent: 0,
        pubacked: 0,
        cpuAtMeasure: process.cpuUsage(),
        lastPubackAt: 0,
        latencies: [],
        dueTimes: [],
        lateness: [],
        refusedLocally: 0,
        stopped: false,
        finished: false,
      };
      const wait = Math.max(0, message.startAt - now());
      setTimeout(() => {
        const cpuAt = setTimeout(
          () => (phase.cpuAtMeasure = process.cpuUsage()),
          Math.max(0, message.measureFrom - now()),
        );
        cpuAt.unref();
        if (message.mode === 'open') openLoop();
        else closedLoop();
      }, wait);
    } else if (message.cmd === 'end') {
      clearInterval(pingTimer);
      machines.forEach((m) => m.close());
      setTimeout(() => process.exit(0), 200);
    }
  } catch (error) {
    process.send({ ev: 'error', message: error.message });
  }
});
