import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import {
  ALARM_NOTIFIER,
  type AlarmDelivery,
  type AlarmNotice,
  type AlarmNotifier,
} from '../alarm-notice/alarm-notifier.port.js';

/**
 * The alarm engine's side of the notification port (docs/alarms.md, "Notifications"): the notification
 * module implements ALARM_NOTIFIER, and queues an alarm's messages in the transaction that opens or
 * escalates it.
 */
@Injectable()
export class AlarmNotices {
  constructor(@Inject(ALARM_NOTIFIER) private readonly notifier: AlarmNotifier) {}

  /** In the caller's transaction: the messages commit or roll back with the alarm change. */
  async enqueue(m: EntityManager, notices: AlarmNotice[]): Promise<void> {
    if (notices.length === 0) return;
    await this.notifier.enqueue(m, notices);
  }

  deliveries(alarmId: string): Promise<AlarmDelivery[]> {
    return this.notifier.deliveries(alarmId);
  }
}
