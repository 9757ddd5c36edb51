import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { DomainEvents } from '../events/domain-events.js';
import { LedgerService } from '../ledger/ledger.service.js';
import { RESULT_CANCELLED, RESULT_SUCCESS } from './mobile-money.provider.js';
import { PaymentReceiptRepository } from './payment-receipt.repository.js';
import { PaymentRepository, type PaymentCard, type SettledBy, type StoredPayment } from './payment.repository.js';

/** What Daraja said about one push, by callback or by status query. */
export interface StkResult {
  checkoutRequestId: string;
  resultCode: number;
  resultDesc: string;
  /** Callback only (the query reports neither). */
  receipt?: string;
  amountCents?: number;
  /** The payer's number as the callback's metadata gives it (digits, country code first). */
  msisdn?: string;
}

/** A payment to the paybill, by C2B confirmation or by a statement line. */
export interface PaybillLine {
  receipt: string;
  amountCents: number;
  accountReference: string;
  /** Digits of the payer's number as the source gives them (statements may mask some), or null. */
  msisdn: string | null;
  completedAt: Date;
  /** A statement line that says it is a customer's paybill payment: never a push's own line. */
  paybill?: boolean;
}

export type PaybillOutcome = 'credited' | 'unmatched' | 'seen';

/** What one transaction changed, announced after its commit. */
interface Changes {
  /** Cards credited: the machines' card lists carry the new balances. */
  cards: string[];
  /** Payments whose state or receipt changed: sent live as `payment.updated`. */
  payments: string[];
}

const noChanges = (): Changes => ({ cards: [], payments: [] });

/**
 * Every state change of a payment that moves money (docs/mobile-money.md, "Settlement"): the payment row
 * is locked, its state changed, and the card credited through the ledger, in one transaction. A
 * receipt belongs to one payment (a unique index) and a payment credits only when it leaves `pending`
 * or `unmatched` (a conditional update under the row lock), so a receipt credits at most once, whether
 * it comes by callback, repeated callback, status query, confirmation, statement or concurrent workers.
 * The payer's SMS receipt is queued in the same transaction as the completion ("Receipt by SMS"), so it
 * goes at most once too.
 */
@Injectable()
export class PaymentSettlementService {
  private readonly logger = new Logger('Payments');

  constructor(
    private readonly dataSource: DataSource,
    private readonly payments: PaymentRepository,
    private readonly receipts: PaymentReceiptRepository,
    private readonly ledger: LedgerService,
    private readonly events: DomainEvents,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Settles a push by what Daraja said; answers what it did (recorded with the body). */
  async settleStk(source: 'stk-callback' | 'stk-query', result: StkResult, body: unknown): Promise<string> {
    const changes = noChanges();
    const outcome = await this.dataSource.transaction(async (m) => {
      let payment = await this.payments.lockByCheckout(m, result.checkoutRequestId);
      // A push whose worker stopped before Daraja's answer was recorded has no CheckoutRequestID here: a
      // paid callback of its phone number and amount is its own (docs/mobile-money.md, "Exactly once").
      if (!payment && source === 'stk-callback' && result.resultCode === RESULT_SUCCESS && result.msisdn) {
        payment = await this.payments.lockUnknownPush(m, {
          amountCents: result.amountCents!,
          msisdn: result.msisdn,
          checkoutRequestId: result.checkoutRequestId,
        });
      }
      const outcome = payment ? await this.applyStk(m, source, payment, result, changes) : 'unknown-request';
      await this.payments.recordEvent(m, {
        source,
        outcome,
        paymentId: payment?.id ?? null,
        reference: result.receipt ?? result.checkoutRequestId,
        body,
      });
      return outcome;
    });
    this.changed(changes);
    return outcome;
  }

  private async applyStk(
    m: EntityManager,
    source: 'stk-callback' | 'stk-query' | 'statement',
    payment: StoredPayment,
    result: StkResult,
    changes: Changes,
  ): Promise<string> {
    const settledBy: SettledBy =
      source === 'stk-callback' ? 'callback' : source === 'statement' ? 'statement' : 'query';
    const code = String(result.resultCode);
    // A push of unknown outcome that failed for want of a callback is still open to proof of payment.
    const reopened =
      payment.status === 'failed' && payment.pushState === 'unknown' && result.resultCode === RESULT_SUCCESS;
    if (payment.status !== 'pending' && !reopened) {
      // A repeated or late callback. A push the status query completed learns its receipt here.
      if (
        payment.status === 'completed' &&
        result.resultCode === RESULT_SUCCESS &&
        result.receipt &&
        !payment.receipt
      ) {
        if (result.amountCents !== payment.amountCents) return 'amount-mismatch';
        if (!(await this.payments.attachReceipt(m, payment.id, result.receipt))) return 'receipt-reused';
        changes.payments.push(payment.id);
        return 'receipt-attached';
      }
      return 'duplicate';
    }
    if (result.resultCode !== RESULT_SUCCESS) {
      const status = result.resultCode === RESULT_CANCELLED ? 'cancelled' : 'failed';
      await this.payments.finish(m, payment.id, { status, settledBy, resultCode: code, resultDesc: result.resultDesc });
      changes.payments.push(payment.id);
      return status;
    }
    if (source !== 'stk-query') {
      // Checked against the push this server made: a callback naming another amount credits nothing
      // (the status query, which asks Daraja itself, settles the push later).
      if (result.amountCents !== payment.amountCents) return 'amount-mismatch';
      if (!result.receipt) return 'invalid';
      if (await this.payments.lockByReceipt(m, result.receipt)) return 'receipt-reused';
    }
    const card = await this.cardOf(m, payment);
    const reference = result.receipt ?? result.checkoutRequestId;
    const after = await this.credit(m, card, payment.amountCents, reference, null);
    if (after === null) {
      await this.payments.finish(m, payment.id, {
        status: 'unmatched',
        receipt: result.receipt,
        settledBy,
        resultCode: code,
        resultDesc: 'the card cannot hold this balance',
      });
      changes.payments.push(payment.id);
      return 'unmatched';
    }
    await this.complete(m, payment.id, after, changes, {
      receipt: result.receipt ?? null,
      card,
      settledBy,
      resultCode: code,
      resultDesc: result.resultDesc,
    });
    return 'completed';
  }

  /**
   * A paybill payment (C2B confirmation) or a statement line: a receipt seen before changes nothing; a
   * statement line may be a push's own (completed by the status query: the receipt is attached; still
   * pending: the statement completes it); otherwise it credits the card named by the account number, or
   * becomes unmatched.
   */
  async settlePaybill(source: 'c2b-confirmation' | 'statement', line: PaybillLine, body: unknown) {
    const changes = noChanges();
    const outcome = await this.dataSource.transaction(async (m) => {
      const result = await this.applyPaybill(m, source, line, changes);
      await this.payments.recordEvent(m, {
        source,
        outcome: result.event,
        paymentId: result.paymentId,
        reference: line.receipt,
        body,
      });
      return result.outcome;
    });
    this.changed(changes);
    return outcome;
  }

  private async applyPaybill(
    m: EntityManager,
    source: 'c2b-confirmation' | 'statement',
    line: PaybillLine,
    changes: Changes,
  ): Promise<{ outcome: PaybillOutcome; event: string; paymentId: string | null }> {
    const known = await this.payments.lockByReceipt(m, line.receipt);
    if (known) return { outcome: 'seen', event: 'duplicate', paymentId: known.id };
    if (source === 'statement' && !line.paybill) {
      // A push's own line: a push completed without its receipt learns it; a push still pending (its
      // callback lost, its status query not yet answered) is completed by the statement, which proves
      // the money arrived. Either way the receipt now belongs to the push and credits nothing else.
      const push = await this.payments.lockReceiptless(m, line);
      if (push?.status === 'completed' && (await this.payments.attachReceipt(m, push.id, line.receipt))) {
        changes.payments.push(push.id);
        return { outcome: 'seen', event: 'receipt-attached', paymentId: push.id };
      }
      if (push && (push.status === 'pending' || (push.status === 'failed' && push.pushState === 'unknown'))) {
        const outcome = await this.applyStk(
          m,
          'statement',
          push,
          {
            checkoutRequestId: push.checkoutRequestId!,
            resultCode: RESULT_SUCCESS,
            resultDesc: 'paid, as the statement shows',
            receipt: line.receipt,
            amountCents: line.amountCents,
          },
          changes,
        );
        return {
          outcome: outcome === 'completed' ? 'credited' : outcome === 'unmatched' ? 'unmatched' : 'seen',
          event: outcome,
          paymentId: push.id,
        };
      }
    }
    const settledBy: SettledBy = source === 'statement' ? 'statement' : 'confirmation';
    const payment = await this.payments.insertPaybill(m, {
      status: 'unmatched',
      card: null,
      accountReference: line.accountReference,
      amountCents: line.amountCents,
      phoneNumber: line.msisdn ? `+${line.msisdn}` : null,
      receipt: line.receipt,
      settledBy,
      completedAt: line.completedAt,
    });
    // Another transaction recorded this receipt meanwhile (its insert won the unique index).
    if (!payment) return { outcome: 'seen', event: 'duplicate', paymentId: null };
    changes.payments.push(payment.id);
    const card = await this.payments.findCard(m, line.accountReference.trim());
    if (!card || card.status !== 'active') return { outcome: 'unmatched', event: 'unmatched', paymentId: payment.id };
    const after = await this.credit(m, card, line.amountCents, line.receipt, null);
    if (after === null) return { outcome: 'unmatched', event: 'unmatched', paymentId: payment.id };
    await this.complete(m, payment.id, after, changes, {
      receipt: line.receipt,
      card,
      settledBy,
      resultCode: '0',
      resultDesc: source === 'statement' ? 'credited from the statement' : 'confirmed',
    });
    return { outcome: 'credited', event: 'completed', paymentId: payment.id };
  }

  /**
   * An admin credits an unmatched payment to a card. Null when the payment is not unmatched (any more);
   * 'card' when the card is unknown; 'limit' when the card cannot hold it.
   */
  async match(
    paymentId: string,
    cardId: string,
    actorId: string,
  ): Promise<'done' | 'not-unmatched' | 'card' | 'limit' | null> {
    const changes = noChanges();
    const result = await this.dataSource.transaction(async (m) => {
      const payment = await this.payments.lock(m, paymentId);
      if (!payment) return null;
      if (payment.status !== 'unmatched') return 'not-unmatched' as const;
      const card = await this.payments.findCard(m, cardId);
      if (!card) return 'card' as const;
      const reference = payment.receipt ?? payment.id;
      const after = await this.credit(m, card, payment.amountCents, reference, actorId);
      if (after === null) return 'limit' as const;
      await this.complete(m, payment.id, after, changes, {
        receipt: null,
        card,
        settledBy: 'match',
        resultCode: '0',
        resultDesc: 'matched by an admin',
      });
      return 'done' as const;
    });
    this.changed(changes);
    return result;
  }

  /**
   * pending or unmatched → completed, in the caller's transaction, with the payer's SMS receipt queued
   * when SMS is on (docs/mobile-money.md, "Receipt by SMS"): one per payment, whatever settles it.
   */
  private async complete(
    m: EntityManager,
    paymentId: string,
    balanceAfterCents: number,
    changes: Changes,
    p: Parameters<PaymentRepository['complete']>[2],
  ): Promise<void> {
    await this.payments.complete(m, paymentId, p);
    if (this.config.notifications.sms) await this.receipts.queue(m, paymentId, balanceAfterCents);
    changes.cards.push(p.card.cardId);
    changes.payments.push(paymentId);
  }

  private async cardOf(m: EntityManager, payment: StoredPayment): Promise<PaymentCard> {
    const card = payment.cardId ? await this.payments.findCard(m, payment.cardId) : null;
    if (!card || card.id !== payment.cardRowId) throw new Error(`Payment ${payment.id} lost its card`);
    return card;
  }

  /**
   * The card's balance and its ledger entry, in the caller's transaction: answers the balance after it,
   * or null when it would overflow.
   */
  private async credit(
    m: EntityManager,
    card: PaymentCard,
    amountCents: number,
    reference: string,
    actorId: string | null,
  ): Promise<number | null> {
    const after = await this.ledger.creditCard(m, card.id, amountCents);
    if (after === null) return null;
    await this.ledger.insertEntries(m, [
      {
        accountType: 'card',
        accountId: card.id,
        kind: 'mobile-top-up',
        amountCents,
        balanceAfterCents: after,
        reference,
        actorId,
      },
    ]);
    return after;
  }

  /** After the commit: the machines' card lists carry the new balances, and the payments go out live. */
  private changed(changes: Changes): void {
    if (changes.cards.length > 0) this.events.emit('cards.changed', { cardIds: changes.cards });
    this.announce(changes.payments);
  }

  /**
   * Sends `payment.updated` for payments that changed (docs/live-events.md), read after their commit. A
   * failed read loses only the live event: the screens also ask again.
   */
  announce(paymentIds: string[]): void {
    if (paymentIds.length === 0) return;
    this.payments.liveViews([...new Set(paymentIds)]).then(
      (views) => views.forEach((view) => this.events.emit('payment.updated', view)),
      (error: Error) => this.logger.warn(`Payment events not sent: ${error.message}`),
    );
  }
}
