// A child process of bench/backfill.bench.mjs: the machines that come back with a backlog, kept out of
// the process that times the live load, so that their client work does not delay its clock.
// Argument: JSON {port, machines: [{espId, deviceKey}], sales, minutes, arraySize, connectFirst}.
// Messages: it sends `ready` with each machine's event ids once the backlogs are written, empties them
// all at once on `start`, and sends `done` with the timings (or `failed`). With connectFirst, every
// machine connects first; the child sends `connected` and the machines publish on `publish`.
import { emptyBacklog, now, offlineBacklog } from './backfill-fleet.mjs';

const { port, machines, sales, minutes, arraySize, connectFirst } = JSON.parse(process.argv[2]);
const backlogs = machines.map(() => offlineBacklog(sales, minutes));
process.send({ type: 'ready', eventIds: backlogs.map((b) => b.map((s) => s.eventId)) });
process.on('message', async (message) => {
  if (message.type !== 'start') return;
  let connected = 0;
  const ready = () => ++connected === machines.length && process.send({ type: 'connected', at: now() });
  const go = connectFirst
    ? new Promise((resolve) => process.on('message', (m) => m.type === 'publish' && resolve()))
    : undefined;
  try {
    const results = await Promise.all(
      machines.map((m, i) => emptyBacklog({ port, ...m, backlog: backlogs[i], arraySize, ready, go })),
    );
    process.send({
      type: 'done',
      connectedMs: results.map((r) => r.connectedMs),
      pubackMs: results.flatMap((r) => r.pubackMs),
      lastPubacked: Math.max(...results.map((r) => r.published)),
      lastAcked: Math.max(...results.map((r) => r.acked)),
      drops: results.reduce((n, r) => n + r.drops, 0),
      resent: results.reduce((n, r) => n + r.resent, 0),
      resends: results.flatMap((r, i) => r.resends.map(([eventId, at]) => [machines[i].espId, eventId, at])),
    });
    await Promise.all(results.map((r) => r.client.endAsync(true)));
  } catch (error) {
    process.send({ type: 'failed', error: String(error?.stack ?? error) });
  }
});
