import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
// The Daraja stand-in lives with the demo, which serves it to people too; tests may use it.
import { DarajaSandbox, darajaTimestamp, stkPassword } from '../../../demo/src/daraja/index.js';

const CREDENTIALS = { consumerKey: 'key-1', consumerSecret: 'secret-1', shortcode: '174379', passkey: 'pass-key' };

async function waitFor<T>(what: string, probe: () => T | undefined | false, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A receiver of callbacks that keeps every body and answers what `answer` says. */
function receiver() {
  const bodies: { path: string; body: any }[] = [];
  let answer: (path: string) => unknown = () => ({ ResultCode: 0, ResultDesc: 'Accepted' });
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      bodies.push({ path: req.url ?? '', body: JSON.parse(text) });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer(req.url ?? '')));
    });
  });
  return {
    bodies,
    server,
    setAnswer: (fn: (path: string) => unknown) => (answer = fn),
    url: () => `http://127.0.0.1:${(server.address() as { port: number }).port}`,
  };
}

describe('the Daraja sandbox', () => {
  const sandbox = new DarajaSandbox(CREDENTIALS);
  const hook = receiver();

  beforeAll(async () => {
    await sandbox.start();
    await new Promise<void>((r) => hook.server.listen(0, '127.0.0.1', r));
  });
  afterAll(async () => {
    await sandbox.stop();
    hook.server.close();
  });

  async function token(at: DarajaSandbox = sandbox): Promise<string> {
    const basic = Buffer.from(`${CREDENTIALS.consumerKey}:${CREDENTIALS.consumerSecret}`).toString('base64');
    const res = await fetch(`${at.url}/oauth/v1/generate?grant_type=client_credentials`, {
      headers: { authorization: `Basic ${basic}` },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { access_token: string; expires_in: string };
    expect(body.expires_in).toBe('3599');
    return body.access_token;
  }

  const post = async (path: string, bearer: string, body: unknown, at: DarajaSandbox = sandbox) => {
    const res = await fetch(`${at.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };

  const pushBody = (over: Record<string, unknown> = {}) => {
    const Timestamp = darajaTimestamp();
    return {
      BusinessShortCode: CREDENTIALS.shortcode,
      Password: stkPassword(CREDENTIALS.shortcode, CREDENTIALS.passkey, Timestamp),
      Timestamp,
      TransactionType: 'CustomerPayBillOnline',
      Amount: 50,
      PartyA: '254708374149',
      PartyB: CREDENTIALS.shortcode,
      PhoneNumber: '254708374149',
      CallBackURL: `${hook.url()}/stk`,
      AccountReference: 'CARD-1',
      TransactionDesc: 'Top-up',
      ...over,
    };
  };

  it('refuses a token request with the wrong consumer secret and API calls without a valid token', async () => {
    const basic = Buffer.from(`${CREDENTIALS.consumerKey}:wrong`).toString('base64');
    const res = await fetch(`${sandbox.url}/oauth/v1/generate?grant_type=client_credentials`, {
      headers: { authorization: `Basic ${basic}` },
    });
    expect(res.status).toBe(400);
    const call = await post('/mpesa/stkpush/v1/processrequest', 'not-a-token', pushBody());
    expect(call.status).toBe(401);
    expect(call.body.errorCode).toBe('404.001.03');
  });

  it('refuses a push whose password is not base64(Shortcode + Passkey + Timestamp)', async () => {
    const bearer = await token();
    const res = await post('/mpesa/stkpush/v1/processrequest', bearer, pushBody({ Password: 'AAAA' }));
    expect(res.status).toBe(400);
    expect(res.body.errorMessage).toMatch(/Password/);
    const amount = await post('/mpesa/stkpush/v1/processrequest', bearer, pushBody({ Amount: 1.5 }));
    expect(amount.status).toBe(400);
  });

  it('accepts a push, reports it as processing until the customer answers, then calls back with the receipt', async () => {
    const bearer = await token();
    const res = await post('/mpesa/stkpush/v1/processrequest', bearer, pushBody());
    expect(res.status).toBe(200);
    expect(res.body.ResponseCode).toBe('0');
    const checkout = res.body.CheckoutRequestID as string;
    const queryBody = () => {
      const Timestamp = darajaTimestamp();
      return {
        BusinessShortCode: CREDENTIALS.shortcode,
        Password: stkPassword(CREDENTIALS.shortcode, CREDENTIALS.passkey, Timestamp),
        Timestamp,
        CheckoutRequestID: checkout,
      };
    };
    const early = await post('/mpesa/stkpushquery/v1/query', bearer, queryBody());
    expect(early.status).toBe(500);
    expect(early.body.errorCode).toBe('500.001.1001');

    const push = sandbox.respond(checkout, 'success', { copies: 2 });
    await sandbox.idle();
    const callbacks = hook.bodies.filter((b) => b.body.Body?.stkCallback?.CheckoutRequestID === checkout);
    expect(callbacks).toHaveLength(2);
    const cb = callbacks[0]!.body.Body.stkCallback;
    expect(cb.ResultCode).toBe(0);
    const items = Object.fromEntries(cb.CallbackMetadata.Item.map((i: any) => [i.Name, i.Value]));
    expect(items.Amount).toBe(50);
    expect(items.MpesaReceiptNumber).toBe(push.receipt);
    expect(String(items.PhoneNumber)).toBe('254708374149');

    const late = await post('/mpesa/stkpushquery/v1/query', bearer, queryBody());
    expect(late.status).toBe(200);
    expect(late.body).toMatchObject({ ResultCode: '0', CheckoutRequestID: checkout });
    expect(sandbox.statement().map((l) => l.receipt)).toContain(push.receipt);
  });

  /** `work` on a sandbox of its own (its prompts time out after `promptTimeoutMs`), stopped after. */
  async function onItsOwn(promptTimeoutMs: number, work: (at: DarajaSandbox) => Promise<void>): Promise<void> {
    const own = new DarajaSandbox({ ...CREDENTIALS, promptTimeoutMs });
    await own.start();
    try {
      await work(own);
    } finally {
      await own.stop();
    }
  }

  /** A push to `at`, and the first callback that comes for it. */
  async function pushAndCallback(at: DarajaSandbox, bearer: string) {
    const res = await post('/mpesa/stkpush/v1/processrequest', bearer, pushBody(), at);
    const checkout = res.body.CheckoutRequestID as string;
    const callback = await waitFor('the callback', () =>
      hook.bodies.find((b) => b.body.Body?.stkCallback?.CheckoutRequestID === checkout),
    );
    return { checkout, code: callback.body.Body.stkCallback.ResultCode as number };
  }

  it('times a push out (1037) when nobody answers the prompt in time: callback and query agree', () =>
    onItsOwn(300, async (quick) => {
      const bearer = await token(quick);
      const { checkout, code } = await pushAndCallback(quick, bearer);
      expect(code).toBe(1037);
      const Timestamp = darajaTimestamp();
      const query = await post(
        '/mpesa/stkpushquery/v1/query',
        bearer,
        {
          BusinessShortCode: CREDENTIALS.shortcode,
          Password: stkPassword(CREDENTIALS.shortcode, CREDENTIALS.passkey, Timestamp),
          Timestamp,
          CheckoutRequestID: checkout,
        },
        quick,
      );
      expect(query.body).toMatchObject({ ResultCode: '1037', CheckoutRequestID: checkout });
      // Too late to pay: the prompt is gone, and nothing reached the statement.
      expect(() => quick.respond(checkout, 'success')).toThrow(/already answered/);
      expect(quick.statement()).toEqual([]);
    }));

  it('still times a push out when Daraja was down and up again meanwhile: the phone kept counting', () =>
    onItsOwn(1_000, async (quick) => {
      const bearer = await token(quick);
      const res = await post('/mpesa/stkpush/v1/processrequest', bearer, pushBody(), quick);
      const checkout = res.body.CheckoutRequestID as string;
      await quick.stop();
      await quick.start();
      const callback = await waitFor('the timeout callback', () =>
        hook.bodies.find((b) => b.body.Body?.stkCallback?.CheckoutRequestID === checkout),
      );
      expect(callback.body.Body.stkCallback.ResultCode).toBe(1037);
      expect(quick.push(checkout)!.result!.code).toBe(1037);
    }));

  it('lets autoCustomer answer a push in time (as the demo does), and times out one it answers too late', () =>
    onItsOwn(1_000, async (quick) => {
      const bearer = await token(quick);
      quick.autoCustomer = { outcome: 'success', afterMs: 100 };
      const paid = await pushAndCallback(quick, bearer);
      expect(paid.code).toBe(0);
      expect(quick.statement().map((l) => l.receipt)).toEqual([quick.push(paid.checkout)!.receipt]);
      quick.autoCustomer = { outcome: 'success', afterMs: 5_000 };
      expect((await pushAndCallback(quick, bearer)).code).toBe(1037);
      expect(quick.statement()).toHaveLength(1);
    }));

  it('loses a callback when told to, and reports a cancellation (1032) to the query', async () => {
    const bearer = await token();
    const res = await post('/mpesa/stkpush/v1/processrequest', bearer, pushBody());
    const checkout = res.body.CheckoutRequestID as string;
    sandbox.respond(checkout, 'cancelled', { copies: 0 });
    await sandbox.idle();
    expect(hook.bodies.some((b) => b.body.Body?.stkCallback?.CheckoutRequestID === checkout)).toBe(false);
    expect(sandbox.push(checkout)!.result!.code).toBe(1032);
  });

  it('takes a paybill payment made before any URL registration: on the statement, nobody told', () =>
    // Its own sandbox: nothing registered there, whatever the other tests did.
    onItsOwn(60_000, async (fresh) => {
      const paid = await fresh.payBill({ msisdn: '254708374149', amount: 40, account: 'CARD-2' });
      expect(paid).toMatchObject({ accepted: true, validation: undefined });
      await fresh.idle();
      expect(fresh.statement()).toEqual([
        expect.objectContaining({ receipt: paid.transId, paidIn: 40, accountNumber: 'CARD-2' }),
      ]);
      expect(fresh.callbackAttempts()).toEqual([]);
    }));

  it('sends C2B validation and then confirmation only when validation accepts', async () => {
    const bearer = await token();
    const reg = await post('/mpesa/c2b/v1/registerurl', bearer, {
      ShortCode: CREDENTIALS.shortcode,
      ResponseType: 'Completed',
      ConfirmationURL: `${hook.url()}/confirm`,
      ValidationURL: `${hook.url()}/validate`,
    });
    expect(reg.body.ResponseCode).toBe('0');
    hook.setAnswer((path) =>
      path === '/validate' ? { ResultCode: 'C2B00012', ResultDesc: 'Rejected' } : { ResultCode: 0 },
    );
    const refused = await sandbox.payBill({ msisdn: '254708374149', amount: 20, account: 'NOPE' });
    expect(refused.accepted).toBe(false);
    hook.setAnswer(() => ({ ResultCode: '0', ResultDesc: 'Accepted' }));
    const paid = await sandbox.payBill({ msisdn: '254708374149', amount: 20, account: 'CARD-1' });
    expect(paid.accepted).toBe(true);
    await sandbox.idle();
    const confirmation = await waitFor('the confirmation', () =>
      hook.bodies.find((b) => b.path === '/confirm' && b.body.TransID === paid.transId),
    );
    expect(confirmation.body).toMatchObject({ BillRefNumber: 'CARD-1', TransAmount: '20.00', MSISDN: '254708374149' });
    expect(hook.bodies.some((b) => b.path === '/confirm' && b.body.TransID === refused.transId)).toBe(false);
  });

  it('answers the next calls with a failure when told to', async () => {
    const bearer = await token();
    sandbox.failNext(1, 503);
    expect((await post('/mpesa/stkpush/v1/processrequest', bearer, pushBody())).status).toBe(503);
    expect((await post('/mpesa/stkpush/v1/processrequest', bearer, pushBody())).status).toBe(200);
  });
});
