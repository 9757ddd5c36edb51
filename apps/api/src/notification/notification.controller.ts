import { Controller } from '@nestjs/common';
import { apiRoutes, type UpdateNotificationPreferences } from '@wv/contracts';
import type { Actor } from '../common/actor.js';
import { CurrentActor, Input, Route } from '../common/route.decorator.js';
import { NotificationPreferencesService } from './notification-preferences.service.js';

@Controller()
export class NotificationController {
  constructor(private readonly preferences: NotificationPreferencesService) {}

  @Route(apiRoutes.getNotificationPreferences)
  get(@CurrentActor() actor: Actor) {
    return this.preferences.get(actor);
  }

  @Route(apiRoutes.updateNotificationPreferences)
  update(@CurrentActor() actor: Actor, @Input('body') body: UpdateNotificationPreferences) {
    return this.preferences.update(actor, body);
  }
}
