// A child process of bench/backfill.bench.mjs: the machines that keep selling while others empty their
// backlogs. They run outside the process that schedules the run and polls PostgreSQL, and speak MQTT
// through bench/lib/mqtt-lean.mjs, so that neither a client library's work nor the parent's event loop
// delays the clock that times them (docs/performance.md).
//
// Argument: JSON {port, machines: [{espId, deviceKey}], rate}.
// Each machine connects as firmware does (persistent session, client id = ESP ID) and subscribes to its
// `sales/ack` at QoS 1 (docs/device-protocol.md, "Boot, offline and reconnect"). Then:
//   { type: 'start', at }  → open loop: sale k is due at `at` + k / rate seconds (epoch ms), on machine
//                            k mod machines, whatever the broker does
//   { type: 'stop' }       → stops scheduling; once every sale is PUBACKed it sends 'stopped' with the
//                            sales sent per machine
//   { type: 'report' }     → sends 'done' with, per sale, its due time (epoch ms), how late it was written,
//                            and its PUBACK and `sales/ack` latencies from its due time (NaN: no `sales/ack`
//                            yet), and disconnects
// It sends 'ready' once every machine is subscribed, and 'failed' when a connection is refused or drops.
import { connect as tcpConnect } from 'node:net';
import mqttPacket from 'mqtt-packet';
import { now, sale, salesAckTopic, salesTopic } from './backfill-fleet.mjs';
import {
  DISCONNECT,
  machineConnect,
  PINGREQ,
  pubackPacket,
  Qos1Sender,
  readPackets,
  readPublish,
} from './mqtt-lean.mjs';

const { port, machines: list, rate } = JSON.parse(process.argv[2]);

const dueAt = [];
/** How late each sale was written: this process's own lag, which the PUBACK latency includes. */
const lateMs = [];
const pubackMs = [];
const ackMs = [];
/** eventId → index of its sale in the arrays above */
const saleIndex = new Map();
let pending = 0;
let running = false;
let stopped = null;

function fail(error) {
  process.send({ type: 'failed', error: String(error?.stack ?? error) });
}

class Machine {
  constructor({ espId, deviceKey }) {
    this.espId = espId;
    this.deviceKey = deviceKey;
    this.ackTopic = salesAckTopic(espId);
    this.sent = 0;
  }

  open() {
    return new Promise((resolve, reject) => {
      const socket = tcpConnect({ host: '127.0.0.1', port, noDelay: true });
      this.socket = socket;
      /** Its sales in flight, each with its index in the arrays of the run. */
      this.sales = new Qos1Sender(socket, salesTopic(this.espId));
      readPackets(socket, (type, body, flags) => {
        if (type === 4) this.pubacked(body.readUInt16BE(0));
        else if (type === 3) this.received(flags, body);
        else if (type === 2 && body[1] !== 0) reject(new Error(`${this.espId}: CONNACK ${body[1]}`));
        else if (type === 9) resolve();
      });
      socket.once('error', reject);
      socket.on('close', () => {
        if (!this.ending) fail(new Error(`${this.espId}: the broker closed the connection`));
      });
      const subscribe = { cmd: 'subscribe', messageId: 1, subscriptions: [{ topic: this.ackTopic, qos: 1 }] };
      // Packet id 1 is free again for the sales once the SUBACK came, before the first sale.
      socket.write(
        Buffer.concat([
          machineConnect({ espId: this.espId, deviceKey: this.deviceKey, clean: false }),
          mqttPacket.generate(subscribe),
        ]),
      );
    });
  }

  pubacked(packetId) {
    const index = this.sales.acknowledged(packetId);
    if (index === undefined) return;
    pubackMs[index] = now() - dueAt[index];
    pending--;
    if (pending === 0 && stopped) stopped();
  }

  /** A `sales/ack` (docs/device-protocol.md, "Acknowledgements and durability"), PUBACKed at QoS 1. */
  received(flags, body) {
    const { topic, packetId, payload } = readPublish(flags, body);
    if (packetId !== undefined) this.socket.write(pubackPacket(packetId));
    if (topic !== this.ackTopic) return;
    const at = now();
    for (const eventId of JSON.parse(payload.toString('utf8')).eventIds) {
      const index = saleIndex.get(eventId);
      if (index === undefined || !Number.isNaN(ackMs[index])) continue;
      ackMs[index] = at - dueAt[index];
      saleIndex.delete(eventId);
    }
  }

  close() {
    this.ending = true;
    this.socket.end(DISCONNECT);
  }
}

const machines = list.map((m) => new Machine(m));

function openLoop(startAt) {
  running = true;
  const perMs = rate / 1000;
  let k = 0;
  const tick = () => {
    if (!running) return;
    const t = now();
    const due = Math.floor((t - startAt) * perMs);
    for (; k < due; k++) {
      const machine = machines[k % machines.length];
      const s = sale(machine.sent++);
      const index = dueAt.length;
      dueAt.push(startAt + k / perMs);
      lateMs.push(t - dueAt[index]);
      pubackMs.push(NaN);
      ackMs.push(NaN);
      saleIndex.set(s.eventId, index);
      pending++;
      machine.sales.send(JSON.stringify(s), index);
    }
    setTimeout(tick, 1);
  };
  setTimeout(tick, Math.max(0, startAt - now()));
}

process.on('message', async (message) => {
  if (message.type === 'start') openLoop(message.at);
  if (message.type === 'stop') {
    running = false;
    if (pending > 0) await new Promise((resolve) => (stopped = resolve));
    process.send({ type: 'stopped', sent: machines.map((m) => m.sent) });
  }
  if (message.type !== 'report') return;
  process.send({
    type: 'done',
    dueAt: Float64Array.from(dueAt),
    lateMs: Float64Array.from(lateMs),
    pubackMs: Float64Array.from(pubackMs),
    ackMs: Float64Array.from(ackMs),
  });
  clearInterval(pings);
  machines.forEach((m) => m.close());
  setTimeout(() => process.exit(0), 200);
});

let pings;
try {
  await Promise.all(machines.map((m) => m.open()));
  pings = setInterval(() => machines.forEach((m) => m.socket.write(PINGREQ)), 30_000);
  process.send({ type: 'ready' });
} catch (error) {
  fail(error);
}
