import { Injectable } from '@nestjs/common';
import { ErrorCode, type AlarmSettings, type AlarmSettingsUpdate } from '@wv/contracts';
import { DataSource } from 'typeorm';
import { AuditTrail } from '../audit/audit-trail.js';
import type { Actor } from '../common/actor.js';
import { AppError } from '../common/app-error.js';
import { DeviceDirectory } from '../device/device-directory.js';
import { AlarmRepository } from './alarm.repository.js';

/** Per-machine alarm settings (docs/alarms.md, "Settings"): read in scope, changed by the owner manager or an admin. */
@Injectable()
export class AlarmSettingsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly alarms: AlarmRepository,
    private readonly devices: DeviceDirectory,
    private readonly audit: AuditTrail,
  ) {}

  async get(actor: Actor, espId: string): Promise<AlarmSettings> {
    if (!(await this.devices.findVisible(actor, espId))) throw new AppError(ErrorCode.DeviceNotFound);
    const { espId: _, ...settings } = await this.alarms.settings(espId);
    return settings;
  }

  async update(actor: Actor, espId: string, patch: AlarmSettingsUpdate): Promise<AlarmSettings> {
    if (!(await this.devices.findVisible(actor, espId))) throw new AppError(ErrorCode.DeviceNotFound);
    return this.dataSource.transaction(async (m) => {
      const { espId: _, ...before } = await this.alarms.lockSettings(m, espId);
      const after: AlarmSettings = {
        ...before,
        ...patch,
        businessHours: patch.businessHours ?? before.businessHours,
        maintenanceUntil:
          patch.maintenanceUntil === undefined
            ? before.maintenanceUntil
            : patch.maintenanceUntil && new Date(patch.maintenanceUntil).toISOString(),
      };
      await this.alarms.saveSettings(m, espId, after, actor.userId);
      await this.audit.record(m, {
        actorId: actor.userId,
        action: 'alarm_settings.updated',
        entity: 'alarm_settings',
        entityId: espId,
        before,
        after,
      });
      return after;
    });
  }
}
