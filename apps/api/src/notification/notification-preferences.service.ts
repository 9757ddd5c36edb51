import { Injectable } from '@nestjs/common';
import {
  DEFAULT_NOTIFICATION_PREFERENCES,
  type NotificationPreferences,
  type UpdateNotificationPreferences,
} from '@wv/contracts';
import type { Actor } from '../common/actor.js';
import { NotificationPreferencesRepository } from './notification-preferences.repository.js';

/** A user reads and changes only their own preferences: the caller is the scope. */
@Injectable()
export class NotificationPreferencesService {
  constructor(private readonly preferences: NotificationPreferencesRepository) {}

  async get(actor: Actor): Promise<NotificationPreferences> {
    return (await this.preferences.find(actor.userId)) ?? { ...DEFAULT_NOTIFICATION_PREFERENCES };
  }

  async update(actor: Actor, patch: UpdateNotificationPreferences): Promise<NotificationPreferences> {
    const current = await this.get(actor);
    return this.preferences.save(actor.userId, { ...current, ...patch });
  }
}
