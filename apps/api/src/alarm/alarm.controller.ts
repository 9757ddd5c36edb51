import { Controller } from '@nestjs/common';
import {
  apiRoutes,
  type AlarmListQuery,
  type AlarmNoteBody,
  type AlarmSettingsUpdate,
  type AssignAlarmBody,
} from '@wv/contracts';
import type { Actor } from '../common/actor.js';
import { CurrentActor, Input, Route } from '../common/route.decorator.js';
import { AlarmSettingsService } from './alarm-settings.service.js';
import { AlarmService } from './alarm.service.js';
import { MachineHealthService } from './machine-health.service.js';

@Controller()
export class AlarmController {
  constructor(
    private readonly alarms: AlarmService,
    private readonly settings: AlarmSettingsService,
    private readonly health: MachineHealthService,
  ) {}

  @Route(apiRoutes.machineHealth)
  machineHealth(@CurrentActor() actor: Actor, @Input('params') p: { espId: string }) {
    return this.health.health(actor, p.espId);
  }

  @Route(apiRoutes.getAlarmSettings)
  getSettings(@CurrentActor() actor: Actor, @Input('params') p: { espId: string }) {
    return this.settings.get(actor, p.espId);
  }

  @Route(apiRoutes.putAlarmSettings)
  putSettings(
    @CurrentActor() actor: Actor,
    @Input('params') p: { espId: string },
    @Input('body') body: AlarmSettingsUpdate,
  ) {
    return this.settings.update(actor, p.espId, body);
  }

  @Route(apiRoutes.listAlarms)
  list(@CurrentActor() actor: Actor, @Input('query') query: AlarmListQuery) {
    return this.alarms.list(actor, query);
  }

  @Route(apiRoutes.getAlarm)
  get(@CurrentActor() actor: Actor, @Input('params') p: { id: string }) {
    return this.alarms.get(actor, p.id);
  }

  @Route(apiRoutes.acknowledgeAlarm)
  acknowledge(@CurrentActor() actor: Actor, @Input('params') p: { id: string }) {
    return this.alarms.acknowledge(actor, p.id);
  }

  @Route(apiRoutes.assignAlarm)
  assign(@CurrentActor() actor: Actor, @Input('params') p: { id: string }, @Input('body') body: AssignAlarmBody) {
    return this.alarms.assign(actor, p.id, body.userId);
  }

  @Route(apiRoutes.addAlarmNote)
  addNote(@CurrentActor() actor: Actor, @Input('params') p: { id: string }, @Input('body') body: AlarmNoteBody) {
    return this.alarms.addNote(actor, p.id, body.text);
  }

  @Route(apiRoutes.clearAlarm)
  clear(@CurrentActor() actor: Actor, @Input('params') p: { id: string }) {
    return this.alarms.clear(actor, p.id);
  }
}
