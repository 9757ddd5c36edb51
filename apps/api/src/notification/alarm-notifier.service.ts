import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AlarmDelivery, AlarmNotice, AlarmNotifier } from '../alarm-notice/alarm-notifier.port.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { NotificationOutboxRepository, type Channel } from './notification-outbox.repository.js';

/**
 * The alarm engine's notifier (docs/alarms.md, "Notifications"): `enqueue` writes the outbox in the
 * transaction that opens or escalates the alarm, so the messages exist exactly when the alarm does; the
 * dispatcher of the worker role sends them. Only the channels that are configured are queued.
 */
@Injectable()
export class AlarmNotifierService implements AlarmNotifier {
  private readonly channels: Channel[];

  constructor(
    private readonly outbox: NotificationOutboxRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.channels = [
      ...(config.notifications.smtpUrl ? (['email'] as const) : []),
      ...(config.notifications.sms ? (['sms'] as const) : []),
    ];
  }

  async enqueue(manager: EntityManager, notices: AlarmNotice[]): Promise<void> {
    await this.outbox.enqueue(manager, notices, { channels: this.channels, timezone: this.config.timezone });
  }

  deliveries(alarmId: string): Promise<AlarmDelivery[]> {
    return this.outbox.deliveries(alarmId);
  }
}
