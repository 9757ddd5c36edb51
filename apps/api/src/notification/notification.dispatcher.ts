import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { RepeatingRound, ThrottledWarning } from '../common/repeating-round.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ChannelError } from './channel-error.js';
import { DailyReportService } from './daily-report.service.js';
import { MailSender } from './mail.sender.js';
import { composeEmail, composeSms } from './notification-message.js';
import { NotificationOutboxRepository, type ClaimedBatch } from './notification-outbox.repository.js';
import { SmsSender } from './sms.sender.js';

const TICK_MS = 1_000;
/** Messages one tick sends at most before it yields (the next tick goes on). */
const BATCHES_PER_TICK = 100;
/** Alarm events one message carries at most (a digest). */
const MAX_ROWS_PER_MESSAGE = 10_000;
const MAX_ATTEMPTS = 20;
const SCHEDULE_EVERY_MS = 30_000;
/** Settled messages, alarm events and reports are kept this long (an alarm's `notifications` list). */
export const NOTIFICATION_RETENTION_DAYS = 90;
const PURGE_EVERY_MS = 3600 * 1000;
const PURGE_BATCH = 10_000;

/**
 * Runs in the worker role (docs/alarms.md, "Notifications"): every second it claims due messages from
 * the outbox (one address and channel at a time, every due row of that address as one digest), sends
 * them, and records the outcome; it also queues and sends the daily reports. Several worker processes
 * share the work through row locks and leases; none sends a message twice (a sender that stopped between
 * handing an SMS over and recording the outcome leaves it given up, docs/alarms.md).
 */
@Injectable()
export class NotificationDispatcher implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Notifications');
  private readonly rounds = new RepeatingRound(
    TICK_MS,
    () => this.tick(),
    (error) => this.logError(error),
  );
  private scheduledAt = 0;
  private purgedAt = 0;
  private readonly warning = new ThrottledWarning((message) => this.logger.warn(message));

  constructor(
    private readonly outbox: NotificationOutboxRepository,
    private readonly mail: MailSender,
    private readonly sms: SmsSender,
    private readonly dailyReports: DailyReportService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.logger.log(`Alarm notifications: ${describeChannels(this.config)}`);
    this.rounds.start();
  }

  /** Before the database connection closes: the round in progress finishes (and records what it sent). */
  async onModuleDestroy(): Promise<void> {
    await this.rounds.stop();
  }

  /** One round: queue due daily reports, then send what is due. */
  async tick(): Promise<void> {
    if (Date.now() - this.scheduledAt >= SCHEDULE_EVERY_MS) {
      this.scheduledAt = Date.now();
      await this.dailyReports.schedule();
    }
    if (Date.now() - this.purgedAt >= PURGE_EVERY_MS) {
      this.purgedAt = Date.now();
      await this.purge();
    }
    for (let i = 0; i < BATCHES_PER_TICK && !this.rounds.stopped; i++) {
      const claimed = await this.outbox.claim({
        leaseSeconds: this.config.notifications.leaseSeconds,
        digestSeconds: this.config.notifications.digestSeconds,
        maxRows: MAX_ROWS_PER_MESSAGE,
        newBatchId: randomUUID(),
        messageId: (batchId) => `<alarm-${batchId}@${this.mail.domain}>`,
      });
      if (claimed.kind === 'none') break;
      if (claimed.kind === 'given-up') {
        this.logger.warn(
          `${claimed.rows} ${claimed.channel} notification(s) of unknown outcome (the sender stopped while sending) marked failed, not sent again`,
        );
        continue;
      }
      if (claimed.kind === 'released') {
        this.logger.warn(
          `${claimed.rows} sms notification(s) claimed by a sender that stopped before handing them over: sent again`,
        );
        continue;
      }
      if (claimed.kind === 'batch' && claimed.batch.lines.length > 0) await this.deliver(claimed.batch);
    }
    for (let i = 0; i < BATCHES_PER_TICK && !this.rounds.stopped; i++) {
      if (!(await this.dailyReports.sendNext())) break;
    }
  }

  /** Deletes what settled more than NOTIFICATION_RETENTION_DAYS before `now`, in batches; answers how many rows. */
  async purge(now = new Date()): Promise<number> {
    const before = new Date(now.getTime() - NOTIFICATION_RETENTION_DAYS * 24 * 3600 * 1000);
    let total = 0;
    for (;;) {
      const deleted = await this.outbox.purge(before, PURGE_BATCH);
      total += deleted;
      if (deleted < PURGE_BATCH) break;
    }
    if (total > 0) this.logger.log(`Purged ${total} notification row(s) settled before ${before.toISOString()}`);
    return total;
  }

  private async deliver(batch: ClaimedBatch): Promise<void> {
    const leaseEnds = Date.now() + this.config.notifications.leaseSeconds * 1000;
    try {
      const language = await this.outbox.language(batch.batchId);
      if (batch.channel === 'email') {
        await this.mail.send({
          to: batch.address,
          ...composeEmail(batch.lines, this.config.timezone, language),
          messageId: batch.messageId,
          headers: { 'X-Alarm-Count': String(batch.lines.length) },
        });
      } else {
        const text = composeSms(batch.lines, this.config.timezone, language);
        // Lease lost meanwhile: another sender has the rows (or will release them); this one sends nothing.
        if (!(await this.outbox.markHanded(batch))) return;
        await this.sms.send(batch.address, text);
      }
    } catch (error) {
      const permanent = error instanceof ChannelError && error.permanent;
      this.logError(error as Error);
      if (error instanceof ChannelError && error.unknown) {
        await this.rounds.retry(leaseEnds, () => this.outbox.giveUp(batch, error.message));
        return;
      }
      await this.rounds.retry(leaseEnds, () =>
        this.outbox.markFailed(batch, (error as Error).message, {
          permanent,
          retryDelayMs: this.config.notifications.retryDelayMs,
          maxAttempts: MAX_ATTEMPTS,
        }),
      );
      return;
    }
    await this.rounds.retry(leaseEnds, () => this.outbox.markSent(batch));
  }

  private logError(error: Error): void {
    this.warning.log(`Notifications: ${error.message} (retried with backoff)`);
  }
}

/** Which channels are on and where they go, naming hosts only (SMTP_URL may hold a password). */
export function describeChannels(config: AppConfig): string {
  const host = (url: string) => {
    try {
      return new URL(url).host;
    } catch {
      return 'an invalid URL';
    }
  };
  const { smtpUrl, sms } = config.notifications;
  const email = smtpUrl ? `email on (${host(smtpUrl)})` : 'email off (SMTP_URL unset)';
  const text = sms ? `SMS on (${host(sms.url)})` : 'SMS off (SMS_URL, SMS_USERNAME or SMS_API_KEY unset)';
  return `${email}, ${text}`;
}
