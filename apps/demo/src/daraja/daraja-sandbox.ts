import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { listenOn } from '../outside/listen.js';
import {
  c2bBody,
  darajaError,
  darajaTimestamp,
  stkCallbackBody,
  stkPassword,
  STK_RESULT,
  type StkOutcome,
} from './daraja-payloads.js';

export interface DarajaSandboxOptions {
  consumerKey: string;
  consumerSecret: string;
  shortcode: string;
  passkey: string;
  /** 0 (default): a free port, kept for restarts. */
  port?: number;
  host?: string;
  /** Lifetime of an access token; Daraja's is 3599 seconds. */
  tokenTtlSeconds?: number;
  /**
   * How long the prompt waits on the customer's phone: a push nobody answered by then ends as timed
   * out (1037, "DS timeout user cannot be reached"), with its callback, as on M-Pesa (about a minute).
   * Default 60,000 ms.
   */
  promptTimeoutMs?: number;
}

/** How one callback travels: after `delayMs`, `copies` POSTs (0: lost; 2 or more: duplicates). */
export interface DeliveryPlan {
  delayMs?: number;
  copies?: number;
}

/** The customer's side when no test decides: answer every push with `outcome` after `afterMs`. */
export interface AutoCustomer {
  outcome: StkOutcome;
  afterMs: number;
  delivery?: DeliveryPlan;
}

export interface SandboxPush {
  merchantRequestId: string;
  checkoutRequestId: string;
  amount: number;
  phoneNumber: string;
  accountReference: string;
  callbackUrl: string;
  requestedAt: Date;
  /** Null while the customer has not answered. */
  result: { code: number; desc: string } | null;
  receipt: string | null;
}

/** One line of the organisation statement (money in only: the sandbox's account never pays out). */
export interface StatementLine {
  receipt: string;
  completedAt: Date;
  details: string;
  paidIn: number;
  otherParty: string;
  accountNumber: string;
}

export interface CallbackAttempt {
  url: string;
  body: unknown;
  status: number | null;
  error: string | null;
  response: unknown;
}

const PHONE = /^254\d{9}$/;
const TIMESTAMP = /^\d{14}$/;

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 64 * 1024) throw new Error('too large');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** A receipt number in M-Pesa's shape: ten upper-case letters and digits. */
export function newReceipt(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  let out = alphabet[randomInt(26)]!;
  for (let i = 1; i < 10; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}

/**
 * A local stand-in for Safaricom's Daraja API, written from its documentation: OAuth
 * (`GET /oauth/v1/generate?grant_type=client_credentials`, basic auth), M-Pesa Express
 * (`POST /mpesa/stkpush/v1/processrequest`, `POST /mpesa/stkpushquery/v1/query`) and C2B URL
 * registration (`POST /mpesa/c2b/v1/registerurl`). It plays the customer too: a push is answered
 * (accepted, cancelled 1032, timed out 1037, …) by a test or by `autoCustomer`, and a paybill payment
 * sends C2B validation and confirmation. Callbacks are delivered by `delivery` (delay, duplicates,
 * loss); `failNext` makes the next API calls fail. Everything it took is kept for tests to read.
 */
export class DarajaSandbox {
  private server?: Server;
  private boundPort: number;
  private readonly tokens = new Map<string, number>();
  private readonly pushesById = new Map<string, SandboxPush>();
  private readonly lines: StatementLine[] = [];
  private readonly attempts: CallbackAttempt[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  /** Each unanswered push's phone: the timer of its automatic answer or of its timeout. */
  private readonly phones = new Set<NodeJS.Timeout>();
  private failures: { status: number; body: unknown }[] = [];
  private dropAnswers = 0;
  private holdAnswers = 0;
  private readonly heldAnswers: (() => void)[] = [];
  private c2bUrls: { validation: string; confirmation: string; responseType: string } | null = null;
  /** Requests per path, for tests that count calls (an STK push sent exactly once). */
  readonly calls = new Map<string, number>();
  /** Default delivery of callbacks. */
  delivery: DeliveryPlan = { delayMs: 0, copies: 1 };
  /**
   * Whether paybill payments are validated first. Safaricom enables external validation per shortcode
   * on request; without it, Daraja sends the confirmation alone.
   */
  validationEnabled = true;
  /** When set, every new push is answered this way without a test deciding. */
  autoCustomer: AutoCustomer | null = null;

  constructor(private readonly options: DarajaSandboxOptions) {
    this.boundPort = options.port ?? 0;
  }

  get port(): number {
    return this.boundPort;
  }

  /** What to put in MPESA_BASE_URL. */
  get url(): string {
    return `http://${this.options.host ?? '127.0.0.1'}:${this.boundPort}`;
  }

  get shortcode(): string {
    return this.options.shortcode;
  }

  pushes(): SandboxPush[] {
    return [...this.pushesById.values()];
  }

  push(checkoutRequestId: string): SandboxPush | undefined {
    return this.pushesById.get(checkoutRequestId);
  }

  /** The C2B URLs the API registered, or null. */
  registeredUrls(): { validation: string; confirmation: string; responseType: string } | null {
    return this.c2bUrls ? { ...this.c2bUrls } : null;
  }

  statement(): StatementLine[] {
    return [...this.lines];
  }

  callbackAttempts(): CallbackAttempt[] {
    return [...this.attempts];
  }

  /** The next `count` API calls (any path but OAuth) answer `status` with Daraja's error body. */
  failNext(count: number, status = 500): void {
    for (let i = 0; i < count; i++) {
      this.failures.push({ status, body: darajaError(randomUUID(), '500.003.02', 'System is busy. Please try again') });
    }
  }

  /**
   * The next `count` STK pushes are taken (the customer is asked) but their answers are lost: the
   * connection closes before the response, so the caller cannot know whether the push went through.
   */
  dropNextAnswers(count: number): void {
    this.dropAnswers += count;
  }

  /**
   * The next `count` STK pushes are taken (the customer is asked) but their answers wait until
   * `releaseAnswers()`: a slow Daraja, or a caller that stopped before reading the answer.
   */
  holdNextAnswers(count: number): void {
    this.holdAnswers += count;
  }

  /** Sends the answers held back by `holdNextAnswers`. */
  releaseAnswers(): void {
    for (const answer of this.heldAnswers.splice(0)) answer();
  }

  /** Forgets the failures, lost and held answers asked for and not yet used, and sends the held ones. */
  clearFaults(): void {
    this.failures = [];
    this.dropAnswers = 0;
    this.holdAnswers = 0;
    this.releaseAnswers();
  }

  /** Resolves once every callback scheduled so far was delivered (or lost). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  async start(): Promise<number> {
    if (this.server) return this.boundPort;
    const server = createServer((req, res) => {
      this.handle(req, res).catch(() => {
        if (!res.headersSent) json(res, 400, darajaError(randomUUID(), '400.002.02', 'Bad Request - Invalid JSON'));
        else res.end();
      });
    });
    this.boundPort = await listenOn(server, (listening) =>
      server.listen(this.boundPort, this.options.host ?? '127.0.0.1', listening),
    );
    this.server = server;
    // The phones kept ringing while the API was down: prompts made before a stop still end in time.
    for (const push of this.pushesById.values()) if (!push.result) this.ring(push);
    return this.boundPort;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    this.heldAnswers.length = 0;
    // Stopped for good or for a while: no callback from here until start() rings again.
    for (const phone of this.phones) clearTimeout(phone);
    this.phones.clear();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /**
   * The customer answers a push on their phone. Success makes a receipt and a statement line; the
   * result is what the status query reports from then on, and the callback goes by `plan`.
   */
  respond(checkoutRequestId: string, outcome: StkOutcome, plan: DeliveryPlan = this.delivery): SandboxPush {
    const push = this.pushesById.get(checkoutRequestId);
    if (!push) throw new Error(`No push ${checkoutRequestId}`);
    if (push.result) throw new Error(`Push ${checkoutRequestId} was already answered`);
    const result = STK_RESULT[outcome];
    push.result = { code: result.code, desc: result.desc };
    const completedAt = new Date();
    if (outcome === 'success') {
      push.receipt = newReceipt();
      this.lines.push({
        receipt: push.receipt,
        completedAt,
        details: `Pay Bill Online from ${push.phoneNumber} - Customer Acc. ${push.accountReference}`,
        paidIn: push.amount,
        otherParty: `${push.phoneNumber} - Customer`,
        accountNumber: push.accountReference,
      });
    }
    this.send(push.callbackUrl, this.callbackOf(push, completedAt), plan);
    return push;
  }

  /** The callback body of an answered push (for tests that deliver it again, late or out of order). */
  callbackOf(push: SandboxPush, completedAt = new Date()) {
    if (!push.result) throw new Error(`Push ${push.checkoutRequestId} has no result yet`);
    return stkCallbackBody({
      merchantRequestId: push.merchantRequestId,
      checkoutRequestId: push.checkoutRequestId,
      resultCode: push.result.code,
      resultDesc: push.result.desc,
      metadata: push.receipt
        ? {
            amount: push.amount,
            receipt: push.receipt,
            transactionDate: darajaTimestamp(completedAt),
            phoneNumber: push.phoneNumber,
          }
        : undefined,
    });
  }

  /**
   * A customer pays the paybill from their phone with `account` as account number: validation (when a
   * ValidationURL is registered) and then, unless refused, the confirmation. Answers the receipt and
   * whether the payment went through; refused payments leave no statement line. Registered URLs only
   * decide who is told: before any registration M-Pesa still takes the payment into the paybill, and
   * it appears on the organisation statement alone, with no validation and no confirmation.
   */
  async payBill(input: {
    msisdn: string;
    amount: number;
    account: string;
    firstName?: string;
    plan?: DeliveryPlan;
  }): Promise<{ transId: string; accepted: boolean; validation: unknown }> {
    const urls = this.c2bUrls;
    const transId = newReceipt();
    const completedAt = new Date();
    const body = c2bBody({
      transId,
      transTime: darajaTimestamp(completedAt),
      amount: input.amount,
      shortcode: this.options.shortcode,
      billRefNumber: input.account,
      msisdn: input.msisdn,
      firstName: input.firstName ?? 'John',
    });
    let validation: unknown;
    if (urls && this.validationEnabled) {
      const answer = await this.post(urls.validation, body);
      validation = answer.response;
      const answered = answer.status !== null && answer.status >= 200 && answer.status < 300;
      const accepted = answered
        ? String((answer.response as { ResultCode?: unknown } | undefined)?.ResultCode) === '0'
        : urls.responseType === 'Completed';
      if (!accepted) return { transId, accepted, validation };
    }
    this.lines.push({
      receipt: transId,
      completedAt,
      details: `Pay Bill from ${input.msisdn} - ${body.FirstName} Acc. ${input.account}`,
      paidIn: input.amount,
      otherParty: `${input.msisdn} - ${body.FirstName}`,
      accountNumber: input.account,
    });
    if (urls) this.send(urls.confirmation, body, input.plan ?? this.delivery);
    return { transId, accepted: true, validation };
  }

  private send(url: string, body: unknown, plan: DeliveryPlan): void {
    const copies = plan.copies ?? 1;
    const delayMs = plan.delayMs ?? 0;
    const task = (async () => {
      if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
      for (let i = 0; i < copies; i++) await this.post(url, body);
    })();
    this.inFlight.add(task);
    void task.finally(() => this.inFlight.delete(task));
  }

  private async post(url: string, body: unknown): Promise<CallbackAttempt> {
    const attempt: CallbackAttempt = { url, body, status: null, error: null, response: undefined };
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
      attempt.status = res.status;
      const text = await res.text();
      try {
        attempt.response = text ? JSON.parse(text) : undefined;
      } catch {
        attempt.response = text;
      }
    } catch (error) {
      attempt.error = (error as Error).message;
    }
    this.attempts.push(attempt);
    return attempt;
  }

  private count(path: string): void {
    this.calls.set(path, (this.calls.get(path) ?? 0) + 1);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const path = url.pathname;
    this.count(path);
    const requestId = randomUUID();
    if (req.method === 'GET' && path === '/oauth/v1/generate') return this.oauth(req, res, url);
    if (req.method !== 'POST') return json(res, 404, darajaError(requestId, '404.001.01', 'Resource not found'));
    if (!this.authorized(req)) {
      return json(res, 401, darajaError(requestId, '404.001.03', 'Invalid Access Token'));
    }
    const failure = this.failures.shift();
    if (failure) return json(res, failure.status, failure.body);
    const body = (await readJson(req)) as Record<string, unknown> | undefined;
    if (!body || typeof body !== 'object') {
      return json(res, 400, darajaError(requestId, '400.002.02', 'Bad Request - Invalid JSON'));
    }
    if (path === '/mpesa/stkpush/v1/processrequest') return this.stkPush(res, requestId, body);
    if (path === '/mpesa/stkpushquery/v1/query') return this.stkQuery(res, requestId, body);
    if (path === '/mpesa/c2b/v1/registerurl') return this.registerUrls(res, requestId, body);
    return json(res, 404, darajaError(requestId, '404.001.01', 'Resource not found'));
  }

  private oauth(req: IncomingMessage, res: ServerResponse, url: URL): void {
    const expected = Buffer.from(`${this.options.consumerKey}:${this.options.consumerSecret}`).toString('base64');
    if (url.searchParams.get('grant_type') !== 'client_credentials') {
      return json(res, 400, darajaError(randomUUID(), '400.008.02', 'Invalid grant type passed'));
    }
    if (req.headers.authorization !== `Basic ${expected}`) {
      return json(res, 400, darajaError(randomUUID(), '400.008.01', 'Invalid Authentication passed'));
    }
    const token = randomBytes(21).toString('base64url');
    const ttl = this.options.tokenTtlSeconds ?? 3599;
    this.tokens.set(token, Date.now() + ttl * 1000);
    json(res, 200, { access_token: token, expires_in: String(ttl) });
  }

  private authorized(req: IncomingMessage): boolean {
    const match = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
    const expires = match ? this.tokens.get(match[1]!) : undefined;
    return expires !== undefined && expires > Date.now();
  }

  /** The password and timestamp of a push or query, or the error sentence Daraja would give. */
  private credentialsError(body: Record<string, unknown>): string | null {
    if (String(body.BusinessShortCode) !== this.options.shortcode) return 'Invalid BusinessShortCode';
    const timestamp = String(body.Timestamp ?? '');
    if (!TIMESTAMP.test(timestamp)) return 'Invalid Timestamp';
    if (body.Password !== stkPassword(this.options.shortcode, this.options.passkey, timestamp)) {
      return 'Invalid Password';
    }
    return null;
  }

  private stkPush(res: ServerResponse, requestId: string, body: Record<string, unknown>): void {
    const bad = (field: string) => json(res, 400, darajaError(requestId, '400.002.02', `Bad Request - ${field}`));
    const credentials = this.credentialsError(body);
    if (credentials) return bad(credentials);
    if (body.TransactionType !== 'CustomerPayBillOnline' && body.TransactionType !== 'CustomerBuyGoodsOnline') {
      return bad('Invalid TransactionType');
    }
    const amount = Number(body.Amount);
    if (!Number.isInteger(amount) || amount < 1) return bad('Invalid Amount');
    const phone = String(body.PhoneNumber ?? '');
    if (!PHONE.test(phone) || String(body.PartyA) !== phone) return bad('Invalid PhoneNumber');
    if (String(body.PartyB) !== this.options.shortcode) return bad('Invalid PartyB');
    const callbackUrl = String(body.CallBackURL ?? '');
    if (!/^https?:\/\/\S+$/.test(callbackUrl)) return bad('Invalid CallBackURL');
    const reference = String(body.AccountReference ?? '');
    if (reference.length < 1 || reference.length > 12) return bad('Invalid AccountReference');
    if (String(body.TransactionDesc ?? '').length > 13) return bad('Invalid TransactionDesc');
    const push: SandboxPush = {
      merchantRequestId: `${randomInt(10_000, 99_999)}-${randomInt(1_000_000, 9_999_999)}-1`,
      checkoutRequestId: `ws_CO_${darajaTimestamp()}${randomBytes(6).toString('hex')}`,
      amount,
      phoneNumber: phone,
      accountReference: reference,
      callbackUrl,
      requestedAt: new Date(),
      result: null,
      receipt: null,
    };
    this.pushesById.set(push.checkoutRequestId, push);
    this.ring(push);
    if (this.dropAnswers > 0) {
      this.dropAnswers--;
      res.socket?.destroy();
      return;
    }
    const answer = () =>
      json(res, 200, {
        MerchantRequestID: push.merchantRequestId,
        CheckoutRequestID: push.checkoutRequestId,
        ResponseCode: '0',
        ResponseDescription: 'Success. Request accepted for processing',
        CustomerMessage: 'Success. Request accepted for processing',
      });
    if (this.holdAnswers > 0) {
      this.holdAnswers--;
      this.heldAnswers.push(answer);
      return;
    }
    answer();
  }

  /**
   * The prompt on the customer's phone, counted from the push: `autoCustomer` answers it after
   * `afterMs`, and one still unanswered after `promptTimeoutMs` times out (1037). One timer a push.
   */
  private ring(push: SandboxPush): void {
    const auto = this.autoCustomer;
    const requested = push.requestedAt.getTime();
    const timesOutAt = requested + (this.options.promptTimeoutMs ?? 60_000);
    const answeredAt = auto ? requested + auto.afterMs : Infinity;
    const phone = setTimeout(
      () => {
        this.phones.delete(phone);
        if (push.result) return;
        if (auto && answeredAt <= timesOutAt) {
          this.respond(push.checkoutRequestId, auto.outcome, auto.delivery ?? this.delivery);
        } else {
          this.respond(push.checkoutRequestId, 'timeout');
        }
      },
      Math.max(0, Math.min(answeredAt, timesOutAt) - Date.now()),
    );
    phone.unref();
    this.phones.add(phone);
  }

  private stkQuery(res: ServerResponse, requestId: string, body: Record<string, unknown>): void {
    const credentials = this.credentialsError(body);
    if (credentials) return json(res, 400, darajaError(requestId, '400.002.02', `Bad Request - ${credentials}`));
    const push = this.pushesById.get(String(body.CheckoutRequestID ?? ''));
    if (!push) return json(res, 400, darajaError(requestId, '400.002.02', 'Bad Request - Invalid CheckoutRequestID'));
    if (!push.result)
      return json(res, 500, darajaError(requestId, '500.001.1001', 'The transaction is being processed'));
    json(res, 200, {
      ResponseCode: '0',
      ResponseDescription: 'The service request has been accepted successsfully',
      MerchantRequestID: push.merchantRequestId,
      CheckoutRequestID: push.checkoutRequestId,
      ResultCode: String(push.result.code),
      ResultDesc: push.result.desc,
    });
  }

  private registerUrls(res: ServerResponse, requestId: string, body: Record<string, unknown>): void {
    const bad = (field: string) => json(res, 400, darajaError(requestId, '400.002.02', `Bad Request - ${field}`));
    if (String(body.ShortCode) !== this.options.shortcode) return bad('Invalid ShortCode');
    if (body.ResponseType !== 'Completed' && body.ResponseType !== 'Cancelled') return bad('Invalid ResponseType');
    const urls = [body.ConfirmationURL, body.ValidationURL].map((u) => String(u ?? ''));
    if (!urls.every((u) => /^https?:\/\/\S+$/.test(u))) return bad('Invalid URL');
    this.c2bUrls = { confirmation: urls[0]!, validation: urls[1]!, responseType: body.ResponseType };
    json(res, 200, {
      OriginatorCoversationID: randomUUID(),
      ResponseCode: '0',
      ResponseDescription: 'Success',
    });
  }
}
