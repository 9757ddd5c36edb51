import { Injectable } from '@nestjs/common';
import { ErrorCode, type Alarm, type AlarmDetail, type AlarmListQuery, type AlarmListResponse } from '@wv/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { AuditTrail } from '../audit/audit-trail.js';
import type { Actor } from '../common/actor.js';
import { AppError } from '../common/app-error.js';
import { DeviceDirectory } from '../device/device-directory.js';
import { AlarmEngine } from './alarm-engine.js';
import { AlarmNotices } from './alarm-notices.js';
import { AlarmRepository } from './alarm.repository.js';
import { AlarmChanges } from './alarm.types.js';

/**
 * The people's side of alarms (docs/alarms.md, "Working an alarm"): list, read, acknowledge, assign,
 * note and clear, each within the caller's scope (another tenant's alarm is 404), each human action
 * in the audit trail, in the transaction of the change, and sent live as `alarm.updated`.
 */
@Injectable()
export class AlarmService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly alarms: AlarmRepository,
    private readonly engine: AlarmEngine,
    private readonly notices: AlarmNotices,
    private readonly audit: AuditTrail,
    private readonly devices: DeviceDirectory,
  ) {}

  /** A machine named in the filter must be in the caller's scope: another tenant's is 404, like everywhere. */
  async list(actor: Actor, query: AlarmListQuery): Promise<AlarmListResponse> {
    if (query.machineId && !(await this.devices.findVisible(actor, query.machineId))) {
      throw new AppError(ErrorCode.DeviceNotFound);
    }
    return this.alarms.list(actor, query);
  }

  async get(actor: Actor, id: string): Promise<AlarmDetail> {
    const alarm = await this.alarms.findVisible(actor, id);
    if (!alarm) throw new AppError(ErrorCode.AlarmNotFound);
    return this.detail(alarm);
  }

  acknowledge(actor: Actor, id: string): Promise<Alarm> {
    return this.change(actor, id, 'acknowledged', async (m, before) => {
      if (before.status !== 'open') throw new AppError(ErrorCode.AlarmNotOpen);
      return this.alarms.update(m, id, { status: 'acknowledged', acknowledgedBy: actor.userId });
    });
  }

  assign(actor: Actor, id: string, userId: string): Promise<Alarm> {
    return this.change(actor, id, 'assigned', async (m, before) => {
      const contacts = (await this.alarms.contacts(m, [before.machineId])).get(before.machineId);
      if (!contacts || (userId !== contacts.ownerId && userId !== contacts.attendantId)) {
        throw new AppError(ErrorCode.AlarmAssigneeNotInScope);
      }
      return this.alarms.update(m, id, { assigneeId: userId });
    });
  }

  async addNote(actor: Actor, id: string, text: string): Promise<AlarmDetail> {
    const alarm = await this.change(actor, id, 'noted', async (m) => {
      const note = await this.alarms.addNote(m, id, actor.userId, text);
      return Object.assign(await this.alarms.touch(m, id), { note });
    });
    return this.detail(alarm);
  }

  clear(actor: Actor, id: string): Promise<Alarm> {
    return this.change(actor, id, 'cleared', async (m, before) => {
      if (before.status === 'cleared') throw new AppError(ErrorCode.AlarmAlreadyCleared);
      return this.alarms.update(m, id, { status: 'cleared', clearedBy: actor.userId });
    });
  }

  /** Locks the alarm (404 outside the scope), applies the change, audits it, and sends it live after the commit. */
  private async change(
    actor: Actor,
    id: string,
    verb: string,
    apply: (m: EntityManager, before: Alarm) => Promise<Alarm & { note?: unknown }>,
  ): Promise<Alarm> {
    const changes = new AlarmChanges();
    const after = await this.dataSource.transaction(async (m) => {
      const before = await this.alarms.findVisible(actor, id, m, true);
      if (!before) throw new AppError(ErrorCode.AlarmNotFound);
      const { note, ...changed } = await apply(m, before);
      await this.audit.record(m, {
        actorId: actor.userId,
        action: `alarm.${verb}`,
        entity: 'alarm',
        entityId: id,
        before,
        after: note ? { ...changed, note } : changed,
      });
      changes.updated.push(changed);
      return changed;
    });
    this.engine.publish(changes);
    return after;
  }

  private async detail(alarm: Alarm): Promise<AlarmDetail> {
    const [notes, notifications] = await Promise.all([this.alarms.notes(alarm.id), this.notices.deliveries(alarm.id)]);
    return { ...alarm, notes, notifications };
  }
}
