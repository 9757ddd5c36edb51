import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { mustWaitForDatabase } from '../common/pg-errors.js';
import { RepeatingRound, ThrottledWarning } from '../common/repeating-round.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { MOBILE_MONEY_PROVIDER, ProviderError, type MobileMoneyProvider } from './mobile-money.provider.js';
import { PaymentSettlementService } from './payment-settlement.service.js';
import { PaymentRepository, type StoredPayment } from './payment.repository.js';

const TICK_MS = 1_000;
const PER_TICK = 50;
/** How long a worker holds a claimed push before another may take it over. */
const LEASE_SECONDS = 120;
/**
 * How long a worker holds a claimed status query: as long as the provider's longest query can take (Daraja:
 * the query and the OAuth token it may need, two calls). Asking twice is harmless (a query only reads, and a
 * payment settles once), so a query whose worker stopped is taken over as soon as its call must have ended,
 * not after a push's lease: the fault suite found a payment whose callback was lost and whose worker was
 * killed mid-query still pending two minutes later.
 */
export const queryLeaseSeconds = (provider: Pick<MobileMoneyProvider, 'longestQueryMs'>) =>
  Math.ceil(provider.longestQueryMs / 1000);
const PUSH_ATTEMPTS = 5;
const PUSH_RETRY_MS = 5_000;
/** How often an accepted push's CheckoutRequestID is written again while PostgreSQL is unavailable. */
const RECORD_RETRY_MS = 1_000;
/**
 * How long a push of unknown outcome (its worker stopped before Daraja's answer was recorded) waits for
 * its paid callback before it fails: three status-query delays, at least 30 s (docs/mobile-money.md).
 */
export const unknownPushSeconds = (queryAfterSeconds: number) => Math.max(3 * queryAfterSeconds, 30);

/** A query that found the push still processing, or failed, is asked again after MPESA_QUERY_AFTER_SECONDS, at most this. */
const QUERY_RETRY_CAP_MS = 30 * 60_000;
/** A paybill URL registration Daraja refused is tried again after this. */
const REGISTER_RETRY_MS = 60_000;

/**
 * Runs in the worker role (docs/mobile-money.md, "Exactly once"): every second it sends the queued STK
 * pushes (the payments table is their durable outbox; rows are claimed under row locks and leases, so
 * several workers never send one push twice) and asks Daraja about pushes whose callback has not come
 * MPESA_QUERY_AFTER_SECONDS after they were accepted, settling them by the answer.
 */
@Injectable()
export class PaymentDispatcher implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Payments');
  private readonly rounds = new RepeatingRound(
    TICK_MS,
    () => this.tick(),
    (error) => this.logError(error),
  );
  private readonly warning = new ThrottledWarning((message) => this.logger.warn(message));
  private paybillRegistered = false;
  private paybillTriedAt = 0;

  constructor(
    private readonly payments: PaymentRepository,
    private readonly settlement: PaymentSettlementService,
    @Inject(MOBILE_MONEY_PROVIDER) private readonly provider: MobileMoneyProvider,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.mpesa) this.rounds.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.rounds.stop();
  }

  /** One round: register the paybill URLs (until Daraja took them), send what is queued, query what is due. */
  async tick(): Promise<void> {
    if (!this.paybillRegistered && Date.now() - this.paybillTriedAt >= REGISTER_RETRY_MS) await this.registerPaybill();
    const { stale, claimed } = await this.payments.claimPushes(
      PER_TICK,
      LEASE_SECONDS,
      unknownPushSeconds(this.config.mpesa!.queryAfterSeconds),
    );
    if (stale.length > 0) {
      this.logger.warn(`${stale.length} STK push(es) of unknown outcome (the worker stopped) failed: no callback came`);
      this.settlement.announce(stale);
    }
    await Promise.all(claimed.map((p) => this.push(p)));
    if (this.rounds.stopped) return;
    const due = await this.payments.claimQueries(PER_TICK, queryLeaseSeconds(this.provider));
    await Promise.all(due.map((q) => this.query(q.id, q.checkoutRequestId)));
  }

  /** Every worker registers the same URLs at start; Daraja keeps the last, which is the same. */
  private async registerPaybill(): Promise<void> {
    this.paybillTriedAt = Date.now();
    const mpesa = this.config.mpesa!;
    const base = `${mpesa.publicUrl}/api/payments/mpesa/${mpesa.callbackToken}/c2b`;
    try {
      await this.provider.registerPaybillUrls({
        validationUrl: `${base}/validation`,
        confirmationUrl: `${base}/confirmation`,
      });
      this.paybillRegistered = true;
    } catch (error) {
      this.logError(error as Error);
    }
  }

  private async push(payment: StoredPayment): Promise<void> {
    const mpesa = this.config.mpesa!;
    try {
      const accepted = await this.provider.requestPayment({
        msisdn: payment.phoneNumber!.replace(/^\+/, ''),
        amount: payment.amountCents / 100,
        accountReference: payment.accountReference ?? payment.cardId ?? 'top-up',
        callbackUrl: `${mpesa.publicUrl}/api/payments/mpesa/${mpesa.callbackToken}/stk-callback`,
      });
      await this.recordPushed(payment.id, accepted.requestId, accepted.merchantRequestId);
    } catch (error) {
      const e = error instanceof ProviderError ? error : new ProviderError(String(error), 'unknown', false);
      this.logError(e);
      // Sent again only when it surely was not taken: an answer that refused it, or a call that never left.
      // A call whose answer was lost may have reached the payer's phone: it waits for its callback.
      if (e.delivery === 'unknown') {
        await this.payments.unknownPush(payment.id, e.message, unknownPushSeconds(mpesa.queryAfterSeconds));
        return;
      }
      const failed = e.retryable
        ? await this.payments.retryPush(payment.id, e.message, PUSH_RETRY_MS, PUSH_ATTEMPTS)
        : await this.payments.failPush(payment.id, e.message);
      if (failed) this.settlement.announce([payment.id]);
    }
  }

  /**
   * Daraja took the push: its CheckoutRequestID must be recorded, or the push waits as `sending` until
   * its lease ends, and its status can never be asked. While PostgreSQL cannot take the write (the fault
   * suite restarted it at that moment), the write is tried again every second, within the lease and
   * while the worker runs; after that the push counts as of unknown outcome, as before.
   */
  private async recordPushed(id: string, checkoutRequestId: string, merchantRequestId: string): Promise<void> {
    const until = Date.now() + (LEASE_SECONDS / 2) * 1000;
    for (;;) {
      try {
        await this.payments.markPushed(id, checkoutRequestId, merchantRequestId, this.config.mpesa!.queryAfterSeconds);
        return;
      } catch (error) {
        if (!mustWaitForDatabase(error) || Date.now() >= until || this.rounds.stopped) throw error;
        await new Promise((resolve) => setTimeout(resolve, RECORD_RETRY_MS));
      }
    }
  }

  private async query(id: string, checkoutRequestId: string): Promise<void> {
    const waitMs = Math.min(this.config.mpesa!.queryAfterSeconds * 1000, QUERY_RETRY_CAP_MS);
    try {
      const answer = await this.provider.queryPayment(checkoutRequestId);
      if (answer.state === 'processing') {
        await this.payments.scheduleQuery(id, waitMs, null);
        return;
      }
      await this.settlement.settleStk(
        'stk-query',
        { checkoutRequestId, resultCode: answer.resultCode, resultDesc: answer.resultDesc },
        answer,
      );
    } catch (error) {
      this.logError(error as Error);
      await this.payments.scheduleQuery(id, waitMs, (error as Error).message);
    }
  }

  private logError(error: Error): void {
    this.warning.log(`M-Pesa: ${error.message}`);
  }
}
