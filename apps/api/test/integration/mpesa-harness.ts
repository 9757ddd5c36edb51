import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import type { DataSource } from 'typeorm';
// The Daraja stand-in lives with the demo, which serves it to people too; tests may use it.
import { DarajaSandbox, type SandboxPush } from '../../../demo/src/daraja/index.js';
import { createAttendant, createManager } from '../factories/fleet.factory.js';
import { ledgerViolations, registerCard } from '../factories/money.factory.js';
import { createTestApp, TEST_ADMIN, type TestApp } from '../support/test-app.js';

export const MPESA = { consumerKey: 'wv-key', consumerSecret: 'wv-secret', shortcode: '174379', passkey: 'wv-passkey' };
export const PHONE = '+254708374149';

/** A port free right now (the app must know its public address before it starts). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined | false | null> | T | undefined | false | null,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface MpesaWorld {
  t: TestApp;
  sandbox: DarajaSandbox;
  token: string;
  admin: string;
  manager: Awaited<ReturnType<typeof createManager>>;
  attendant: Awaited<ReturnType<typeof createAttendant>>;
  /** Another tenant: a manager with their own machine and attendant. */
  other: { manager: Awaited<ReturnType<typeof createManager>>; attendant: Awaited<ReturnType<typeof createAttendant>> };
  close(): Promise<void>;
}

/** The program pointed at a Daraja sandbox, with two tenants. */
export async function createMpesaWorld(env: Record<string, string> = {}): Promise<MpesaWorld> {
  const sandbox = new DarajaSandbox(MPESA);
  await sandbox.start();
  const token = randomBytes(18).toString('base64url');
  // PUBLIC_URL must name the port before the program listens, so the port is picked first; another test
  // process may take it in between, and then a new one is picked.
  const start = async (port: number) =>
    createTestApp({
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      MPESA_BASE_URL: sandbox.url,
      MPESA_CONSUMER_KEY: MPESA.consumerKey,
      MPESA_CONSUMER_SECRET: MPESA.consumerSecret,
      MPESA_SHORTCODE: MPESA.shortcode,
      MPESA_PASSKEY: MPESA.passkey,
      MPESA_CALLBACK_TOKEN: token,
      MPESA_QUERY_AFTER_SECONDS: '2',
      HTTP_RATE_LIMIT: '100000',
      ...env,
    });
  let t: TestApp | undefined;
  for (let attempt = 1; !t; attempt++) {
    try {
      t = await start(await freePort());
    } catch (error) {
      if (attempt >= 5 || !/is taken/.test((error as Error).message)) throw error;
    }
  }
  const admin = await t.http.login(TEST_ADMIN.email, TEST_ADMIN.password);
  const manager = await createManager(t.http, admin, 2);
  const attendant = await createAttendant(t.http, manager.token, manager.devices[0]!.espId);
  const otherManager = await createManager(t.http, admin, 1);
  const otherAttendant = await createAttendant(t.http, otherManager.token, otherManager.devices[0]!.espId);
  return {
    t,
    sandbox,
    token,
    admin,
    manager,
    attendant,
    other: { manager: otherManager, attendant: otherAttendant },
    async close() {
      await t.close();
      await sandbox.stop();
    },
  };
}

export const newCard = (w: MpesaWorld, attendantToken = w.attendant.token) => registerCard(w.t.http, attendantToken);

/** Asks for a top-up and waits until the sandbox holds its push. */
export async function topUp(
  w: MpesaWorld,
  cardId: string,
  amount: number,
  opts: { token?: string; key?: string; phoneNumber?: string } = {},
): Promise<{ paymentId: string; push: SandboxPush }> {
  const res = await w.t.http.post(
    `/cards/${cardId}/mobile-top-up`,
    { phoneNumber: opts.phoneNumber ?? PHONE, amount },
    { token: opts.token ?? w.attendant.token, headers: opts.key ? { 'idempotency-key': opts.key } : {} },
  );
  if (res.status !== 202) throw new Error(`mobile-top-up failed: ${res.status} ${JSON.stringify(res.body)}`);
  const paymentId = res.body.paymentId as string;
  const checkout = await waitFor(`the push of ${paymentId}`, async () => {
    const rows: { checkout: string | null }[] = await w.t.dataSource.query(
      `SELECT checkout_request_id AS checkout FROM payments WHERE id = $1`,
      [paymentId],
    );
    return rows[0]?.checkout;
  });
  return { paymentId, push: w.sandbox.push(checkout)! };
}

export async function paymentOf(w: MpesaWorld, paymentId: string) {
  const res = await w.t.http.get(`/payments/${paymentId}`, { token: w.admin });
  if (res.status !== 200) throw new Error(`GET /payments failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { status: string; receipt: string | null; amount: number; cardId: string | null; method: string };
}

export const settled = (w: MpesaWorld, paymentId: string, status = 'completed') =>
  waitFor(`payment ${paymentId} ${status}`, async () => {
    const p = await paymentOf(w, paymentId);
    return p.status === status ? p : undefined;
  });

export async function balanceOf(ds: DataSource, cardId: string): Promise<number> {
  const rows: { balance: string }[] = await ds.query(`SELECT balance::text FROM cards WHERE card_id = $1`, [cardId]);
  return Number(rows[0]!.balance);
}

export async function mobileCredits(ds: DataSource, cardId: string): Promise<{ amount: number; reference: string }[]> {
  const rows: { amount: string; reference: string }[] = await ds.query(
    `SELECT e.amount::text, e.reference FROM ledger_entries e JOIN cards c ON c.id = e.account_id
     WHERE e.account_type = 'card' AND e.kind = 'mobile-top-up' AND c.card_id = $1 ORDER BY e.id`,
    [cardId],
  );
  return rows.map((r) => ({ amount: Number(r.amount), reference: r.reference }));
}

export { ledgerViolations };

/** Posts a body to one of the program's M-Pesa callback paths. */
export function callback(w: MpesaWorld, path: string, body: unknown, token = w.token) {
  return w.t.http.post(`/payments/mpesa/${token}/${path}`, body);
}
