/**
 * Another tenant, the xlsx exports (docs/security.md): an export holds one of a few slots (a database
 * connection and a worker thread) while it streams. A tenant whose client sends export requests and
 * never reads the answers must not be able to hold every slot and leave other tenants' exports
 * without an answer: idle downloads are cut, one account gets at most 2 exports at once (429 beyond),
 * and a full wait queue answers 503 with Retry-After at once instead of hanging.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { connect, type Socket } from 'node:net';
import { startApp, type RunningApp } from '../../../src/bootstrap.js';
import { TransactionExportService } from '../../../src/sales-view/transaction-export.service.js';
import { createManager } from '../../factories/fleet.factory.js';
import { rebuildRollups } from '../../factories/sales.factory.js';
import { waitFor } from '../../support/mqtt-machine.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../../support/test-app.js';

/** Small, so that the test sees idle downloads cut; the second process waits far longer. */
const IDLE_TIMEOUT_MS = 1_500;
/**
 * Card sales with random 64-hex card ids: about 80 bytes of compressed xlsx a row, so the file is far
 * larger than the loopback socket buffers and a client that reads nothing really blocks the export.
 */
const BIG_MACHINE_ROWS = 150_000;

type Manager = Awaited<ReturnType<typeof createManager>>;

interface Hoarder {
  socket: Socket;
  closed: Promise<void>;
}

/**
 * An export request whose client never reads the body: it takes the answer's first bytes (so that we
 * know the export got a slot and started) and then reads nothing more.
 */
function hoard(baseUrl: string, path: string, token: string): Promise<Hoarder> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const closed = new Promise<void>((r) => socket.once('close', () => r()));
    socket.once('error', () => undefined);
    socket.once('data', (chunk: Buffer) => {
      socket.pause();
      const status = chunk.toString('latin1').split('\r\n')[0];
      if (!status?.startsWith('HTTP/1.1 200')) {
        socket.destroy();
        reject(new Error(`the export was not started: ${status}`));
        return;
      }
      resolve({ socket, closed });
    });
    socket.once('close', () => reject(new Error('closed before any answer')));
    socket.write(`GET /api${path} HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: Bearer ${token}\r\n\r\n`);
  });
}

/** A normal download, read to its end; the status, Retry-After and the byte count. */
async function download(baseUrl: string, path: string, token: string, timeoutMs = 30_000) {
  const res = await fetch(`${baseUrl}/api${path}`, {
    headers: { authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(timeoutMs),
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, retryAfter: res.headers.get('retry-after'), bytes };
}

const exportPath = (m: Manager) => `/machines/${m.devices[0]!.espId}/card-transactions.xlsx`;

describe('another tenant hoarding the export slots with downloads it never reads', () => {
  let t: TestApp;
  let patient: RunningApp;
  let patientUrl: string;
  let admin: string;
  let hoarderA: Manager;
  let hoarderB: Manager;
  let victim: Manager;
  const hoarders: Hoarder[] = [];
  const pending: AbortController[] = [];

  beforeAll(async () => {
    t = await createTestApp({ EXPORT_IDLE_TIMEOUT_MS: String(IDLE_TIMEOUT_MS) });
    // A second API process of the same deployment whose idle timeout never fires during a test.
    patient = await startApp({ ...t.config, port: 0, roles: new Set(['api']), exportIdleTimeoutMs: 600_000 });
    patientUrl = `http://127.0.0.1:${patient.port}`;
    admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
    hoarderA = await createManager(t.http, admin, 2);
    hoarderB = await createManager(t.http, admin);
    victim = await createManager(t.http, admin);
    for (const m of [hoarderA, hoarderB]) {
      const espId = m.devices[0]!.espId;
      await t.dataSource.query(
        `INSERT INTO sales (esp_id, event_id, kind, price, volume, water_type, card_id, flag, sold_at, local_date, source)
         SELECT $1, 'big-' || g, 'card', (random() * 10000)::numeric(14,2), (random() * 20)::numeric(14,3), 'pure',
                md5(random()::text) || md5(random()::text), 'unknown_card', ts,
                (ts AT TIME ZONE 'Africa/Dar_es_Salaam')::date, 'rest'
         FROM generate_series(1, $2::int) g, LATERAL (SELECT now() - g * interval '17 seconds' AS ts) x`,
        [espId, BIG_MACHINE_ROWS],
      );
      await rebuildRollups(t.dataSource, [espId]);
    }
    await t.dataSource.query(
      `INSERT INTO sales (esp_id, event_id, kind, price, volume, water_type, card_id, flag, sold_at, local_date, source)
       SELECT $1, 'small-' || g, 'card', 250, 5, 'cold', 'CARD-V', 'unknown_card', now() - g * interval '1 hour',
              ((now() - g * interval '1 hour') AT TIME ZONE 'Africa/Dar_es_Salaam')::date, 'rest'
       FROM generate_series(1, 20) g`,
      [victim.devices[0]!.espId],
    );
  }, 120_000);
  afterEach(async () => {
    pending.splice(0).forEach((c) => c.abort());
    const open = hoarders.splice(0);
    open.forEach((h) => h.socket.destroy());
    await Promise.all(open.map((h) => h.closed));
  });
  afterAll(async () => {
    await patient?.close();
    await t?.close();
  }, 30_000);

  it('answers another tenant’s export while never-read downloads hold every slot, and frees the slots of the idle ones', async () => {
    for (const m of [hoarderA, hoarderA, hoarderB, hoarderB])
      hoarders.push(await hoard(t.baseUrl, exportPath(m), m.token));

    const victimExport = await download(t.baseUrl, exportPath(victim), victim.token, 60_000);
    expect(victimExport.status).toBe(200);
    expect(victimExport.bytes.subarray(0, 2).toString()).toBe('PK');

    // The idle ones were cut and their slots freed: the hoarding account may run two exports at once
    // again (its limit), here of its other, empty machine. A paused client cannot see the server's
    // close itself, so this is how the test sees it.
    const small = `/machines/${hoarderA.devices[1]!.espId}/coin-transactions.xlsx`;
    await waitFor(
      () => Promise.all([0, 1].map(async () => (await download(t.baseUrl, small, hoarderA.token)).status)),
      (statuses) => statuses.every((status) => status === 200),
      45_000,
    );
  }, 150_000);

  it('refuses a third export of one account at once with 429 while its two others are open', async () => {
    for (let i = 0; i < 2; i++) hoarders.push(await hoard(patientUrl, exportPath(hoarderA), hoarderA.token));
    const third = await download(patientUrl, exportPath(hoarderA), hoarderA.token, 15_000);
    expect(third.status).toBe(429);
    expect(JSON.parse(third.bytes.toString())).toMatchObject({ statusCode: 429, code: 'RateLimited' });
    // Another tenant is not affected by that account's limit.
    expect((await download(patientUrl, exportPath(victim), victim.token)).status).toBe(200);
  }, 90_000);

  it('answers 503 with Retry-After at once when every slot is taken and the wait queue is full', async () => {
    const waitingTenants = [];
    for (let i = 0; i < 4; i++) waitingTenants.push(await createManager(t.http, admin));
    const late = await createManager(t.http, admin);
    for (const m of [hoarderA, hoarderA, hoarderB, hoarderB])
      hoarders.push(await hoard(patientUrl, exportPath(m), m.token));
    // Four more tenants, two exports each: they wait for a slot (and fill the queue).
    const waiting = waitingTenants.flatMap((m) =>
      [0, 1].map(() => {
        const controller = new AbortController();
        pending.push(controller);
        return fetch(`${patientUrl}/api${exportPath(m)}`, {
          headers: { authorization: `Bearer ${m.token}` },
          signal: controller.signal,
        }).then(
          (res) => res.status,
          () => 'aborted' as const,
        );
      }),
    );
    const exports = patient.app.get(TransactionExportService);
    await waitFor(
      async () => exports.load,
      (load) => load.waiting === waiting.length,
      20_000,
    );
    const refused = await download(patientUrl, exportPath(late), late.token, 15_000);
    expect(refused.status).toBe(503);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(JSON.parse(refused.bytes.toString())).toMatchObject({ statusCode: 503, code: 'ServiceUnavailable' });
    // The waiting ones were still waiting (no answer yet) when the late one was refused.
    const settledEarly = await Promise.race([
      Promise.any(waiting).then(() => true),
      new Promise((r) => setTimeout(() => r(false), 200)),
    ]);
    expect(settledEarly).toBe(false);
  }, 90_000);
});
