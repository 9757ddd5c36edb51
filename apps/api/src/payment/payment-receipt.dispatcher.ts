import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { RepeatingRound, ThrottledWarning } from '../common/repeating-round.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ChannelError } from '../notification/channel-error.js';
import { messageLanguage } from '../notification/message-texts.js';
import { SmsSender } from '../notification/sms.sender.js';
import { composeReceiptSms } from './payment-receipt.message.js';
import { PaymentReceiptRepository, type ClaimedReceipt } from './payment-receipt.repository.js';

const TICK_MS = 1_000;
const PER_TICK = 50;
const MAX_ATTEMPTS = 20;
/** Settled receipts are kept as long as the alarm messages. */
const RETENTION_DAYS = 90;
const PURGE_EVERY_MS = 3600 * 1000;
const PURGE_BATCH = 10_000;

/**
 * Runs in the worker role while SMS is on (docs/mobile-money.md, "Receipt by SMS"): every second it
 * claims the queued receipts, sends each to the payer's phone, and records the outcome. A refusal that
 * may pass waits a backoff; a sender that stopped mid-send leaves its receipt to be given up, never sent
 * twice.
 */
@Injectable()
export class PaymentReceiptDispatcher implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('PaymentReceipts');
  private readonly rounds = new RepeatingRound(
    TICK_MS,
    () => this.tick(),
    (error) => this.logError(error),
  );
  private readonly warning = new ThrottledWarning((message) => this.logger.warn(message));
  private purgedAt = 0;

  constructor(
    private readonly receipts: PaymentReceiptRepository,
    private readonly sms: SmsSender,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (this.sms.enabled) this.rounds.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.rounds.stop();
  }

  /** One round: send what is due (several workers share it through row locks and leases). */
  async tick(): Promise<void> {
    if (Date.now() - this.purgedAt >= PURGE_EVERY_MS) {
      this.purgedAt = Date.now();
      const before = new Date(Date.now() - RETENTION_DAYS * 24 * 3600 * 1000);
      while ((await this.receipts.purge(before, PURGE_BATCH)) === PURGE_BATCH);
    }
    const { released, givenUp, claimed } = await this.receipts.claim(PER_TICK, this.config.notifications.leaseSeconds);
    if (released > 0) {
      this.logger.warn(
        `${released} payment receipt SMS claimed by a sender that stopped before handing them over: sent again`,
      );
    }
    if (givenUp > 0) {
      this.logger.warn(
        `${givenUp} payment receipt SMS of unknown outcome (the sender stopped) marked failed, not sent again`,
      );
    }
    await Promise.all(claimed.map((r) => this.deliver(r)));
  }

  private async deliver(receipt: ClaimedReceipt): Promise<void> {
    const leaseEnds = Date.now() + this.config.notifications.leaseSeconds * 1000;
    try {
      const text = composeReceiptSms(receipt, this.config.currency, messageLanguage(receipt.language));
      // Lease lost meanwhile: the next claim releases the receipt; this sender sends nothing.
      if (!(await this.receipts.markHanded(receipt.paymentId))) return;
      await this.sms.send(receipt.address, text);
    } catch (error) {
      this.logError(error as Error);
      // An SMS the API may have taken (its answer was lost) is given up as failed, never sent twice.
      const unknown = error instanceof ChannelError && error.unknown;
      await this.rounds.retry(leaseEnds, () =>
        this.receipts.markFailed(
          receipt.paymentId,
          `${unknown ? 'outcome unknown: ' : ''}${(error as Error).message}`,
          {
            permanent: unknown || (error instanceof ChannelError && error.permanent),
            retryDelayMs: this.config.notifications.retryDelayMs,
            maxAttempts: MAX_ATTEMPTS,
          },
        ),
      );
      return;
    }
    await this.rounds.retry(leaseEnds, () => this.receipts.markSent(receipt.paymentId));
  }

  private logError(error: Error): void {
    this.warning.log(`Payment receipts: ${error.message} (retried with backoff)`);
  }
}
