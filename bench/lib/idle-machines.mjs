// A child process of bench/connections.bench.mjs holding thousands of machines as raw clients (an mqtt.js client
// costs several times the memory): packets written with mqtt-packet, read with mqtt-lean. Each connection follows
// the firmware's order of operations (docs/device-protocol.md, "Boot, offline and reconnect"): CONNECT with clean
// session false and the offline will, one SUBSCRIBE to config, sales/ack, cards and cards/delta, the retained
// online status with what it has queued, `cards/ack` with the card list version it holds, then its sale (QoS 1),
// those three in one write. A retained card list newer than the one held is taken and acknowledged, as firmware
// does. Then idle; on command, drop everything or reconnect at a given rate. Driven over IPC; argv[2] is
// {port, secret, from, to, addresses}.
import net from 'node:net';
import mqttPacket from 'mqtt-packet';
import {
  buildCardsAckTopic,
  buildCardsDeltaTopic,
  buildCardsTopic,
  buildConfigTopic,
  buildSalesAckTopic,
  buildSalesTopic,
  buildStatusTopic,
} from '@wv/contracts';
import { loadEspId, loadKey } from './load-fleet.mjs';
import { pubackPacket, readPackets, readPublish } from './mqtt-lean.mjs';

const { port, secret, from, to, addresses } = JSON.parse(process.argv[2]);
const sockets = new Map();
/** Sessions that were up and then closed without being told to (by the broker or the network). */
let closedWhileIdle = 0;
let dropping = false;
const KEEPALIVE = 600;
const gen = (packet) => mqttPacket.generate(packet, { protocolVersion: 4 });
/** The card list version each machine holds, as its flash would: kept across its sessions. */
const heldVersion = new Map();
const SALE_ID = 2;
/** Fixed-header packet types (MQTT 3.1.1 section 2.2.1). */
const [CONNACK, PUBLISH, PUBACK, SUBACK] = [2, 3, 4, 9];
/** Packets a machine sends the same at every connection, encoded once (its key is derived per machine). */
const sameEveryTime = new Map();
const once = (key, make) => sameEveryTime.get(key) ?? sameEveryTime.set(key, make()).get(key);
/** The firmware's one SUBSCRIBE: its config, sales/ack and card list topics. */
const subscribePacket = (espId) =>
  once(`subscribe ${espId}`, () =>
    gen({
      cmd: 'subscribe',
      messageId: 1,
      subscriptions: [
        { topic: buildConfigTopic(espId), qos: 1 },
        { topic: buildSalesAckTopic(espId), qos: 1 },
        { topic: buildCardsTopic(espId), qos: 1 },
        { topic: buildCardsDeltaTopic(espId), qos: 1 },
      ],
    }),
  );

/** One machine's session: resolves once subscribed (and, with `sale`, once the sale is PUBACKed). */
const history = new Map();
const trace = (i, what) => {
  if (!process.env.BENCH_TRACE_CLOSES) return;
  const h = history.get(i) ?? [];
  h.push(`${new Date().toISOString().slice(17, 23)} ${what}`);
  history.set(i, h);
};
function session(i, sale) {
  return new Promise((resolve) => {
    const espId = loadEspId(i);
    const attempt = Math.random().toString(36).slice(2, 6);
    trace(i, `start ${attempt}`);
    const started = performance.now();
    const socket = net.connect({ port, host: '127.0.0.1', localAddress: addresses[i % addresses.length] });
    const timing = { connack: 0, puback: 0 };
    let done = false;
    let publishedAt = 0;
    const finish = (result) => {
      if (done) return;
      done = true;
      trace(i, `finish ${attempt} ${result.ok ? 'ok' : result.why}`);
      clearTimeout(timer);
      if (!result.ok) socket.destroy();
      resolve({ ...result, ...timing });
    };
    const timer = setTimeout(() => finish({ ok: false, why: 'timeout' }), 30_000);
    socket.setNoDelay(true);
    socket.on('error', () => undefined);
    socket.on('close', () => {
      if (sockets.get(i) === socket) {
        sockets.delete(i);
        if (!dropping) {
          closedWhileIdle++;
          // BENCH_TRACE_CLOSES: which machine lost its idle session, and when, for the program's log.
          trace(i, `idle close ${attempt}`);
          if (process.env.BENCH_TRACE_CLOSES) console.error(`idle close ${espId} ${history.get(i).join(' | ')}`);
        }
      }
      finish({ ok: false, why: 'closed' });
    });
    // The machines' side is the benchmark's own load: its packets are read in place (mqtt-lean), and what firmware
    // sends together after the SUBACK leaves in one write, so that the clients spend as little of the machine as
    // they can (docs/performance.md, "Reconnect storms").
    readPackets(socket, (type, body, flags) => {
      trace(i, `${type} ${attempt}`);
      if (type === CONNACK) {
        timing.connack = performance.now() - started;
        const returnCode = body[1];
        if (returnCode !== 0) return finish({ ok: false, why: `connack ${returnCode}` });
        socket.write(subscribePacket(espId));
      } else if (type === SUBACK) {
        sockets.set(i, socket);
        const status = { online: true, firmware: 'bench', queued: sale ? 1 : 0 };
        const packets = [
          once(`status ${espId} ${status.queued}`, () => gen(publish(buildStatusTopic(espId), status, 3, true))),
          gen(publish(buildCardsAckTopic(espId), { version: heldVersion.get(i) ?? 0 }, 4)),
        ];
        if (sale) {
          publishedAt = performance.now();
          const body = { eventId: sale, kind: 'coin', price: 500, volume: 1, waterType: 'pure' };
          packets.push(gen(publish(buildSalesTopic(espId), body, SALE_ID)));
        }
        socket.write(packets.length === 1 ? packets[0] : Buffer.concat(packets));
        if (!sale) return finish({ ok: true });
      } else if (type === PUBACK && body.readUInt16BE(0) === SALE_ID) {
        timing.puback = performance.now() - publishedAt;
        finish({ ok: true });
      } else if (type === PUBLISH) {
        // Config, sales/ack and card lists: acknowledged, so the broker's in-flight window stays empty.
        const packet = readPublish(flags, body);
        const replies = [];
        if (packet.qos === 1) replies.push(pubackPacket(packet.packetId));
        if (packet.topic === buildCardsTopic(espId)) {
          const { version } = JSON.parse(packet.payload.toString());
          if (version > (heldVersion.get(i) ?? 0)) {
            heldVersion.set(i, version);
            replies.push(gen(publish(buildCardsAckTopic(espId), { version }, 5)));
          }
        }
        if (replies.length > 0) socket.write(replies.length === 1 ? replies[0] : Buffer.concat(replies));
      }
    });
    socket.on('connect', () =>
      socket.write(
        once(`connect ${espId}`, () =>
          gen({
            cmd: 'connect',
            clientId: espId,
            username: espId,
            password: Buffer.from(loadKey(secret, i)),
            keepalive: KEEPALIVE,
            clean: false,
            will: { topic: buildStatusTopic(espId), payload: Buffer.from('{"online":false}'), qos: 1, retain: true },
          }),
        ),
      ),
    );
  });
}

const publish = (topic, body, messageId, retain = false) => ({
  cmd: 'publish',
  topic,
  payload: JSON.stringify(body),
  qos: 1,
  messageId,
  retain,
});

/** Opens sessions for every machine of this process at `rate` per second, retrying failures each second. */
async function connectAll({ rate, sale, deadlineMs }) {
  const pending = [];
  for (let i = from; i < to; i++) pending.push(i);
  const result = { ok: 0, attempts: 0, failures: {}, connack: [], puback: [], pubacked: [] };
  const deadline = Date.now() + deadlineMs;
  const started = performance.now();
  let next = 0;
  let retrying = 0;
  const inflight = new Set();
  while ((pending.length || inflight.size || retrying) && Date.now() < deadline) {
    const due = Math.floor(((performance.now() - started) / 1000) * rate);
    while (pending.length && next < due && inflight.size < 2000) {
      const i = pending.shift();
      next++;
      result.attempts++;
      const p = session(i, sale).then((r) => {
        inflight.delete(p);
        if (r.ok) {
          result.ok++;
          result.connack.push(Math.round(r.connack));
          if (sale) {
            result.puback.push(Math.round(r.puback));
            result.pubacked.push(i);
          }
        } else {
          result.failures[r.why] = (result.failures[r.why] ?? 0) + 1;
          retrying++;
          setTimeout(() => {
            retrying--;
            pending.push(i);
          }, 1000);
        }
      });
      inflight.add(p);
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  result.seconds = (performance.now() - started) / 1000;
  return result;
}

const pinger = setInterval(
  () => {
    for (const socket of sockets.values()) socket.write(gen({ cmd: 'pingreq' }));
  },
  (KEEPALIVE / 3) * 1000,
);
pinger.unref();

process.on('message', async (msg) => {
  if (msg.cmd === 'connect') {
    process.send({ type: 'connected', ...(await connectAll(msg)) });
  } else if (msg.cmd === 'drop') {
    dropping = true;
    for (const socket of sockets.values()) socket.destroy();
    sockets.clear();
    dropping = false;
    process.send({ type: 'dropped' });
  } else if (msg.cmd === 'count') {
    process.send({ type: 'count', open: sockets.size, closedWhileIdle });
    closedWhileIdle = 0;
  } else if (msg.cmd === 'exit') {
    for (const socket of sockets.values()) socket.destroy();
    process.exit(0);
  }
});
process.send({ type: 'ready' });
