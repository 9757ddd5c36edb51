import { IDEMPOTENCY_KEY_HEADER } from '@wv/contracts';
import type { Random } from '@wv/simulator';
import type pg from 'pg';
// The Daraja stand-in lives with the demo, which serves it to people too; the soak drives it as the customer.
import {
  statementCsv,
  type DarajaSandbox,
  type StatementLine,
  type StkOutcome,
} from '../../../demo/src/daraja/index.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ANSWER_DEADLINE_MS = 120_000;
/** How long a push may take to reach Daraja: the worker that sends it may be down for a while. */
const PUSH_DEADLINE_MS = 60_000;

export interface PaymentVerdict {
  /** Payments the customers made (statement lines of the run): money M-Pesa took. */
  paid: number;
  /** Of those, credited before the statement was imported (callback, status query, confirmation). */
  creditedLive: number;
  /** Credited by the statement import: their callbacks were lost (by plan or by a fault). */
  creditedByStatement: number;
  /** STK pushes asked for, and the answers the sandbox gave (success, cancelled, …). */
  pushes: number;
  paybills: number;
  /** SMS receipts the customers' phones received (at most one per payment; given up if a sender died mid-send). */
  receipts: number;
  violations: string[];
}

/**
 * Customers paying for card top-ups by M-Pesa while the faults happen (docs/mobile-money.md): the
 * owner manager asks for STK pushes (retried with the same Idempotency-Key, as the web app does), the
 * sandbox's customer answers each one (paid, cancelled, timed out, wrong PIN) and delivers the
 * callback late, twice or never; other customers pay the paybill with the card as account number.
 * After the load an admin imports the organisation statement, as an operator would each day. Then
 * every shilling M-Pesa took is on exactly one card, once, and nothing else was credited.
 */
export class PaymentWorkload {
  readonly violations: string[] = [];
  private pushes = 0;
  private paybills = 0;
  private phoneCounter = 0;
  private keyCounter = 0;
  private readonly firstLine: number;
  /** The card each customer's phone paid for (a push's account reference is cut to 12 characters). */
  private readonly cardOfPhone = new Map<string, string>();

  constructor(
    private readonly options: {
      baseUrl: () => string;
      managerToken: string;
      sandbox: DarajaSandbox;
      /** Cards registered so far (the money workload's). */
      cards: () => string[];
      rng: Random;
      tag: string;
      /** A different number for each payment of the suite: a push is found in the sandbox by it. */
      phoneBase: number;
    },
  ) {
    this.firstLine = options.sandbox.statement().length;
  }

  /** Makes about `count` payments spread over `spreadMs`. */
  async run(count: number, spreadMs: number): Promise<void> {
    const { rng } = this.options;
    const tasks: Promise<void>[] = [];
    // Customers pay for cards that exist: the first ones are registered a moment into the run.
    const began = Date.now();
    // Under faults the first float and card can take a while: wait as long as a money call may.
    while (this.options.cards().length === 0 && Date.now() - began < ANSWER_DEADLINE_MS) await sleep(100);
    const started = Date.now();
    const span = Math.max(spreadMs - (started - began), spreadMs / 2);
    for (let i = 0; i < count; i++) {
      await sleep(Math.max(0, started + (span * i) / count - Date.now()));
      const cards = this.options.cards();
      if (cards.length === 0) {
        this.violations.push('no card was registered to pay for');
        return;
      }
      const card = rng.pick(cards);
      const amount = rng.int(1, 300) * 10;
      tasks.push(rng.next() < 0.75 ? this.stk(card, amount, rng.fork(i)) : this.paybill(card, amount, rng.fork(i)));
    }
    await Promise.all(tasks);
  }

  private nextPhone(): string {
    return `2547${String(this.options.phoneBase + ++this.phoneCounter).padStart(8, '0')}`;
  }

  private async stk(card: string, amount: number, rng: Random): Promise<void> {
    const phone = this.nextPhone();
    this.cardOfPhone.set(phone, card);
    const { sandbox } = this.options;
    // Now and then Daraja itself is busy: the push must be sent again, once.
    if (rng.next() < 0.05) sandbox.failNext(1, 503);
    const answer = await this.call(`/cards/${encodeURIComponent(card)}/mobile-top-up`, {
      phoneNumber: `+${phone}`,
      amount,
    });
    if (answer.status !== 202) {
      if (answer.status !== 0) this.violations.push(`mobile-top-up ${card}: unexpected ${answer.status}`);
      return;
    }
    this.pushes++;
    const deadline = Date.now() + PUSH_DEADLINE_MS;
    let push = sandbox.pushes().find((p) => p.phoneNumber === phone);
    while (!push && Date.now() < deadline) {
      await sleep(200);
      push = sandbox.pushes().find((p) => p.phoneNumber === phone);
    }
    // A push that never reached Daraja was never paid: the payment must end failed, and no money moved.
    if (!push) return;
    await sleep(rng.int(0, 1_500));
    const roll = rng.next();
    const outcome: StkOutcome =
      roll < 0.7
        ? 'success'
        : roll < 0.82
          ? 'cancelled'
          : roll < 0.9
            ? 'timeout'
            : roll < 0.95
              ? 'wrongPin'
              : 'insufficientFunds';
    const copies = rng.next() < 0.1 ? 0 : rng.next() < 0.15 ? 2 : 1;
    // The prompt may have timed out on the phone meanwhile (a push that reached Daraja late): nothing to answer.
    if (push.result) return;
    sandbox.respond(push.checkoutRequestId, outcome, { delayMs: rng.int(0, 2_000), copies });
  }

  private async paybill(card: string, amount: number, rng: Random): Promise<void> {
    this.paybills++;
    const phone = this.nextPhone();
    this.cardOfPhone.set(phone, card);
    const copies = rng.next() < 0.1 ? 0 : rng.next() < 0.15 ? 2 : 1;
    // The customer's payment goes through whatever the program's state (Daraja's ResponseType Completed).
    await this.options.sandbox
      .payBill({ msisdn: phone, amount, account: card, plan: { delayMs: rng.int(0, 1_000), copies } })
      .catch((error: Error) => this.violations.push(`paybill ${card}: ${error.message}`));
  }

  /** Waits until no payment is pending and the sandbox delivered every callback it planned. */
  async settle(db: pg.Pool, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      await this.options.sandbox.idle();
      const { rows } = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM payments WHERE status = 'pending'`,
      );
      if (rows[0]!.n === 0) return true;
      if (Date.now() > deadline) return false;
      await sleep(250);
    }
  }

  /** This run's statement lines: the money customers paid. */
  lines(): StatementLine[] {
    return this.options.sandbox.statement().slice(this.firstLine);
  }

  /** The admin imports the run's organisation statement; answers what the import said. */
  async importStatement(adminToken: string): Promise<{ seen: number; credited: number; unmatched: number }> {
    const form = new FormData();
    form.append('file', new Blob([statementCsv(this.lines())]), 'statement.csv');
    const deadline = Date.now() + ANSWER_DEADLINE_MS;
    for (;;) {
      try {
        const res = await fetch(`${this.options.baseUrl()}/api/payments/statement`, {
          method: 'POST',
          headers: { authorization: `Bearer ${adminToken}` },
          body: form,
          signal: AbortSignal.timeout(30_000),
        });
        const body = (await res.json()) as { seen: number; credited: number; unmatched: number };
        if (res.status === 200 || res.status === 201) return body;
        if (res.status < 500) throw new Error(`statement import: ${res.status} ${JSON.stringify(body)}`);
      } catch (error) {
        if (Date.now() > deadline) throw error;
      }
      await sleep(500);
    }
  }

  /**
   * Every line of the statement credited its card exactly once, by its amount, under its receipt, and no
   * other M-Pesa credit exists. `creditedBefore` holds the receipts credited before the import.
   */
  async check(db: pg.Pool, creditedBefore: ReadonlySet<string>, sms: { to: string }[]): Promise<PaymentVerdict> {
    const violations = [...this.violations];
    const lines = this.lines();
    // One receipt per payment, never two (docs/mobile-money.md, "Receipt by SMS"): each customer's phone paid once.
    const smsPerPhone = new Map<string, number>();
    for (const m of sms) {
      const phone = m.to.replace(/^\+/, '');
      if (this.cardOfPhone.has(phone)) smsPerPhone.set(phone, (smsPerPhone.get(phone) ?? 0) + 1);
    }
    for (const [phone, n] of smsPerPhone) if (n > 1) violations.push(`${n} SMS receipts to ${phone}, who paid once`);
    const { rows: credits } = await db.query<{ reference: string; card: string; amount: string; n: number }>(`
      SELECT e.reference, c.card_id AS card, sum(e.amount)::text AS amount, count(*)::int AS n
      FROM ledger_entries e JOIN cards c ON c.id = e.account_id
      WHERE e.account_type = 'card' AND e.kind = 'mobile-top-up' GROUP BY 1, 2`);
    const creditOf = new Map(credits.map((c) => [c.reference, c]));
    const { rows: payments } = await db.query<{
      receipt: string | null;
      checkout: string | null;
      phone: string | null;
      status: string;
      method: string;
      push_state: string;
      last_error: string | null;
    }>(`SELECT receipt, checkout_request_id AS checkout, phone_number AS phone, status, method, push_state, last_error
        FROM payments`);
    const paymentOf = new Map(payments.filter((p) => p.receipt).map((p) => [p.receipt!, p]));
    const describe = (phone: string) =>
      payments
        .filter((p) => p.phone === `+${phone}`)
        .map((p) => `${p.method} ${p.status}/${p.push_state}${p.last_error ? ` (${p.last_error})` : ''}`)
        .join('; ') || 'no payment row';
    // A push completed by the status query is credited under its CheckoutRequestID, and learns its
    // receipt later (a late callback, the statement): the credit is found through the payment.
    const creditFor = (receipt: string) => {
      const checkout = paymentOf.get(receipt)?.checkout;
      return creditOf.get(receipt) ?? (checkout ? creditOf.get(checkout) : undefined);
    };
    const accounted = new Set<string>();
    for (const line of lines) {
      const phone = line.otherParty.split(' ')[0]!;
      const card = this.cardOfPhone.get(phone) ?? line.accountNumber;
      const credit = creditFor(line.receipt);
      const payment = paymentOf.get(line.receipt);
      if (credit) accounted.add(credit.reference);
      if (!credit)
        violations.push(`receipt ${line.receipt} (${line.paidIn} to ${card}) never credited: ${describe(phone)}`);
      else if (credit.n !== 1) violations.push(`receipt ${line.receipt} credited ${credit.n} times`);
      else if (credit.card !== card || Number(credit.amount) !== line.paidIn) {
        violations.push(
          `receipt ${line.receipt}: credited ${credit.amount} to ${credit.card}, paid ${line.paidIn} to ${card}`,
        );
      }
      if (payment?.status !== 'completed') {
        violations.push(`receipt ${line.receipt}: payment ${payment ? payment.status : 'missing'}, not completed`);
      }
    }
    for (const c of credits) {
      if (!accounted.has(c.reference))
        violations.push(`credit ${c.reference} (${c.amount} to ${c.card}) was never paid`);
    }
    const { rows: completedWithout } = await db.query<{ id: string }>(
      `SELECT id::text FROM payments WHERE status = 'completed' AND receipt IS NULL`,
    );
    for (const p of completedWithout) violations.push(`payment ${p.id} completed without a receipt`);
    return {
      paid: lines.length,
      creditedLive: lines.filter((l) => {
        const c = creditFor(l.receipt);
        return c && creditedBefore.has(c.reference);
      }).length,
      creditedByStatement: lines.filter((l) => {
        const c = creditFor(l.receipt);
        return c && !creditedBefore.has(c.reference);
      }).length,
      pushes: this.pushes,
      paybills: this.paybills,
      receipts: [...smsPerPhone.values()].reduce((a, b) => a + b, 0),
      violations,
    };
  }

  /** The receipts credited so far. */
  static async creditedReceipts(db: pg.Pool): Promise<Set<string>> {
    const { rows } = await db.query<{ reference: string }>(
      `SELECT reference FROM ledger_entries WHERE kind = 'mobile-top-up'`,
    );
    return new Set(rows.map((r) => r.reference));
  }

  /** One call, retried with the same Idempotency-Key until the server gives a real answer. */
  private async call(path: string, body: unknown): Promise<{ status: number; body: unknown }> {
    const key = `${this.options.tag}-pay-${++this.keyCounter}`;
    const deadline = Date.now() + ANSWER_DEADLINE_MS;
    for (;;) {
      try {
        const res = await fetch(`${this.options.baseUrl()}/api${path}`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${this.options.managerToken}`,
            'content-type': 'application/json',
            [IDEMPOTENCY_KEY_HEADER]: key,
          },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(10_000),
        });
        const text = await res.text();
        if (res.status < 500 && res.status !== 429)
          return { status: res.status, body: text ? JSON.parse(text) : undefined };
      } catch {
        // refused, reset or timed out: ask again with the same key
      }
      if (Date.now() > deadline) {
        this.violations.push(`POST ${path}: no answer within ${ANSWER_DEADLINE_MS / 1000} s (key ${key})`);
        return { status: 0, body: undefined };
      }
      await sleep(200);
    }
  }
}
