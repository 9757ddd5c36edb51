import { Module } from '@nestjs/common';
import { ALARM_NOTIFIER } from '../alarm-notice/alarm-notifier.port.js';
import { AlarmNotifierService } from './alarm-notifier.service.js';
import { DailyReportRepository } from './daily-report.repository.js';
import { DailyReportService } from './daily-report.service.js';
import { MailSender } from './mail.sender.js';
import { NotificationController } from './notification.controller.js';
import { NotificationDispatcher } from './notification.dispatcher.js';
import { NotificationOutboxRepository } from './notification-outbox.repository.js';
import { NotificationPreferencesRepository } from './notification-preferences.repository.js';
import { NotificationPreferencesService } from './notification-preferences.service.js';
import { SmsSender } from './sms.sender.js';

/**
 * Notifications (docs/alarms.md, "Notifications"): provides the alarm engine's `ALARM_NOTIFIER` (the
 * port in `alarm-notice/`), which queues messages in the engine's transaction; the api and worker modules
 * below import it, and so does the alarm module.
 */
@Module({
  providers: [
    NotificationOutboxRepository,
    AlarmNotifierService,
    { provide: ALARM_NOTIFIER, useExisting: AlarmNotifierService },
  ],
  // NotificationOutboxRepository: for this folder's worker module only (other folders may not import it).
  exports: [ALARM_NOTIFIER, NotificationOutboxRepository],
})
export class NotificationModule {}

/**
 * The email and SMS senders, for this folder's worker module and the payment receipts
 * (docs/mobile-money.md, "Receipt by SMS").
 */
@Module({ providers: [MailSender, SmsSender], exports: [MailSender, SmsSender] })
export class NotificationChannelsModule {}

/** `GET/PUT /user/notification-preferences` (api role). */
@Module({
  imports: [NotificationModule],
  controllers: [NotificationController],
  providers: [NotificationPreferencesRepository, NotificationPreferencesService],
})
export class NotificationApiModule {}

/** The dispatcher of email and SMS and the daily reports (worker role). */
@Module({
  imports: [NotificationModule, NotificationChannelsModule],
  providers: [DailyReportRepository, DailyReportService, NotificationDispatcher],
})
export class NotificationWorkerModule {}
