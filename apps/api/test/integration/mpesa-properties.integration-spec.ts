import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { randomBytes } from 'node:crypto';
import { statementCsv, type SandboxPush, type StkOutcome } from '../../../demo/src/daraja/index.js';
import { AppConfig } from '../../src/config/app-config.js';
import { MOBILE_MONEY_PROVIDER, type MobileMoneyProvider } from '../../src/payment/mobile-money.provider.js';
import { PaymentSettlementService } from '../../src/payment/payment-settlement.service.js';
import { PaymentDispatcher } from '../../src/payment/payment.dispatcher.js';
import { PaymentRepository } from '../../src/payment/payment.repository.js';
import { StatementImportService } from '../../src/payment/statement-import.service.js';
import { insertCard } from '../factories/sales.factory.js';
import { callback, createMpesaWorld, PHONE, type MpesaWorld } from './mpesa-harness.js';

const RUNS = Number(process.env.MPESA_PROPERTY_RUNS ?? 1000);
const MSISDN = '254708374149';

type Op =
  | { t: 'push'; amount: number }
  | { t: 'answer'; idx: number; outcome: StkOutcome; copies: number }
  | { t: 'replay'; idx: number }
  | { t: 'tick' }
  | { t: 'query' }
  | { t: 'race'; idx: number }
  | { t: 'drop' }
  | { t: 'paybill'; amount: number; toCard: boolean; validation: boolean; copies: number }
  | { t: 'statement' };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ t: fc.constant('push' as const), amount: fc.integer({ min: 1, max: 500 }) }),
  fc.record({
    t: fc.constant('answer' as const),
    idx: fc.nat(5),
    outcome: fc.constantFrom<StkOutcome>('success', 'success', 'cancelled', 'timeout', 'insufficientFunds'),
    copies: fc.integer({ min: 0, max: 3 }),
  }),
  fc.record({ t: fc.constant('replay' as const), idx: fc.nat(5) }),
  fc.record({ t: fc.constant('tick' as const) }),
  fc.record({ t: fc.constant('query' as const) }),
  fc.record({ t: fc.constant('race' as const), idx: fc.nat(5) }),
  fc.record({ t: fc.constant('drop' as const) }),
  fc.record({
    t: fc.constant('paybill' as const),
    amount: fc.integer({ min: 1, max: 500 }),
    toCard: fc.boolean(),
    validation: fc.boolean(),
    copies: fc.integer({ min: 0, max: 2 }),
  }),
  fc.record({ t: fc.constant('statement' as const) }),
);

/**
 * Random interleavings of top-up requests, customer answers, callbacks (lost, duplicated, replayed
 * late, raced with the status query), pushes whose answer was lost, paybill payments and statement
 * imports. After each run everything is reconciled (unanswered pushes time out, status queries run,
 * the statement is imported) and then the card holds exactly what its customers paid, every payment
 * says what became of it, and the balance equals the card's ledger.
 */
describe('M-Pesa money properties', () => {
  let w: MpesaWorld;
  let dispatcher: PaymentDispatcher;
  /** A second worker process's dispatcher, racing the first. */
  let other: PaymentDispatcher;
  let statements: StatementImportService;
  let espId: string;

  beforeAll(async () => {
    // The api role only: the test plays the worker (its ticks) so that it decides when pushes go out.
    w = await createMpesaWorld({ APP_ROLES: 'api', MPESA_QUERY_AFTER_SECONDS: '1' });
    const app = w.t.running.app;
    const worker = () =>
      new PaymentDispatcher(
        app.get(PaymentRepository),
        app.get(PaymentSettlementService),
        app.get<MobileMoneyProvider>(MOBILE_MONEY_PROVIDER),
        w.t.config as AppConfig,
      );
    dispatcher = worker();
    other = worker();
    statements = app.get(StatementImportService);
    espId = w.manager.devices[0]!.espId;
    // The first tick registers the paybill URLs, as a worker does at start.
    await dispatcher.tick();
  }, 120_000);
  afterAll(async () => {
    await w?.close();
  });

  /** The status query is due now for every sent push of the card (time passing, for the test). */
  const makeQueriesDue = (cardId: string) =>
    w.t.dataSource.query(
      `UPDATE payments SET next_attempt_at = now() - interval '1 second'
       WHERE card_id = $1 AND status = 'pending' AND push_state = 'sent'`,
      [cardId],
    );

  async function run(ops: Op[]): Promise<void> {
    // Card IDs of at most 12 characters fit Daraja's AccountReference whole (the statement names them).
    const cardId = `P${randomBytes(5).toString('hex').toUpperCase()}`;
    const stranger = `X${randomBytes(5).toString('hex').toUpperCase()}`;
    await insertCard(w.t.dataSource, { cardId, espId, firstName: 'Prop', lastName: 'Erty', cardType: 'test' });
    const pushes = () => w.sandbox.pushes().filter((p) => p.accountReference === cardId);
    const pick = (idx: number): SandboxPush | undefined => pushes()[idx % Math.max(pushes().length, 1)];
    const receipts = new Set<string>();
    let expectedUnmatched = 0;

    const importStatement = async () => {
      const lines = w.sandbox.statement().filter((l) => receipts.has(l.receipt));
      await statements.import({ buffer: Buffer.from(statementCsv(lines)), originalname: 'statement.csv' });
    };

    for (const o of ops) {
      switch (o.t) {
        case 'push': {
          const res = await w.t.http.post(
            `/cards/${cardId}/mobile-top-up`,
            { phoneNumber: PHONE, amount: o.amount },
            { token: w.admin },
          );
          expect(res.status).toBe(202);
          break;
        }
        case 'answer': {
          const push = pick(o.idx);
          if (push && !push.result) {
            w.sandbox.respond(push.checkoutRequestId, o.outcome, { copies: o.copies });
            if (push.receipt) receipts.add(push.receipt);
          }
          break;
        }
        case 'replay': {
          const push = pick(o.idx);
          if (push?.result) expect((await callback(w, 'stk-callback', w.sandbox.callbackOf(push))).status).toBe(200);
          break;
        }
        case 'tick':
          await Promise.all([dispatcher.tick(), other.tick()]);
          break;
        case 'query':
          await makeQueriesDue(cardId);
          await dispatcher.tick();
          break;
        case 'race': {
          const push = pick(o.idx);
          await makeQueriesDue(cardId);
          await Promise.all([
            dispatcher.tick(),
            other.tick(),
            push?.result ? callback(w, 'stk-callback', w.sandbox.callbackOf(push)) : Promise.resolve(),
            push?.result ? callback(w, 'stk-callback', w.sandbox.callbackOf(push)) : Promise.resolve(),
          ]);
          break;
        }
        case 'drop':
          w.sandbox.dropNextAnswers(1);
          break;
        case 'paybill': {
          w.sandbox.validationEnabled = o.validation;
          const paid = await w.sandbox.payBill({
            msisdn: MSISDN,
            amount: o.amount,
            account: o.toCard ? cardId : stranger,
            plan: { copies: o.copies },
          });
          w.sandbox.validationEnabled = true;
          if (paid.accepted) {
            receipts.add(paid.transId);
            if (!o.toCard) expectedUnmatched++;
          }
          break;
        }
        case 'statement':
          await w.sandbox.idle();
          await importStatement();
          break;
      }
    }

    // Reconcile: pushes go out, unanswered ones time out, queries settle the rest, the statement comes.
    await dispatcher.tick();
    await w.sandbox.idle();
    for (const push of pushes()) if (!push.result) w.sandbox.respond(push.checkoutRequestId, 'timeout', { copies: 0 });
    w.sandbox.clearFaults();
    await w.sandbox.idle();
    for (let i = 0; i < 5; i++) {
      await makeQueriesDue(cardId);
      await dispatcher.tick();
    }
    // Pushes whose answer was lost waited for a paid callback; their time is up now.
    await w.t.dataSource.query(
      `UPDATE payments SET next_attempt_at = now() - interval '1 second'
       WHERE card_id = $1 AND status = 'pending' AND push_state = 'unknown'`,
      [cardId],
    );
    await dispatcher.tick();
    await importStatement();

    const paidIn =
      pushes()
        .filter((p) => p.result?.code === 0)
        .reduce((sum, p) => sum + p.amount, 0) +
      w.sandbox
        .statement()
        .filter(
          (l) => receipts.has(l.receipt) && l.accountNumber === cardId && !l.details.startsWith('Pay Bill Online'),
        )
        .reduce((sum, l) => sum + l.paidIn, 0);
    const [card] = await w.t.dataSource.query(
      `SELECT c.balance::text AS balance, coalesce(sum(e.amount), 0)::text AS ledger,
              count(e.id)::int AS entries, count(DISTINCT e.reference)::int AS refs
       FROM cards c LEFT JOIN ledger_entries e ON e.account_type = 'card' AND e.account_id = c.id
       WHERE c.card_id = $1 GROUP BY c.id`,
      [cardId],
    );
    expect(Number(card.balance)).toBe(paidIn);
    expect(Number(card.ledger)).toBe(Number(card.balance));
    expect(card.refs).toBe(card.entries);

    // Every push says what the customer did. One whose answer was lost learnt its CheckoutRequestID from
    // its paid callback, or failed when none came, and then completed if the statement shows it paid.
    const payments: { checkout: string | null; status: string; push_state: string; settled_by: string | null }[] =
      await w.t.dataSource.query(
        `SELECT checkout_request_id AS checkout, status, push_state, settled_by FROM payments WHERE card_id = $1 AND method = 'stk'`,
        [cardId],
      );
    // Each request asked the payer once, whichever worker sent it.
    expect(pushes()).toHaveLength(payments.length);
    for (const p of payments) {
      expect(p.status).not.toBe('pending');
      if (!p.checkout) {
        expect(p.push_state).toBe('unknown');
        expect(p.status === 'failed' || (p.status === 'completed' && p.settled_by === 'statement')).toBe(true);
        continue;
      }
      const code = w.sandbox.push(p.checkout)!.result!.code;
      expect(p.status).toBe(code === 0 ? 'completed' : code === 1032 ? 'cancelled' : 'failed');
    }
    const [unmatched] = await w.t.dataSource.query(
      `SELECT count(*)::int AS n FROM payments WHERE account_reference = $1 AND status = 'unmatched'`,
      [stranger],
    );
    expect(unmatched.n).toBe(expectedUnmatched);
  }

  it(
    `credits each receipt exactly once under any interleaving (${RUNS} runs)`,
    async () => {
      await fc.assert(fc.asyncProperty(fc.array(op, { minLength: 3, maxLength: 12 }), run), { numRuns: RUNS });
    },
    60 * 60_000,
  );
});
