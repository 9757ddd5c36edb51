import { Injectable } from '@nestjs/common';
import { ErrorCode, type MachineHealth } from '@wv/contracts';
import { DataSource } from 'typeorm';
import type { Actor } from '../common/actor.js';
import { AppError } from '../common/app-error.js';
import { DeviceDirectory } from '../device/device-directory.js';
import { TelemetryStore } from '../telemetry/telemetry-store.js';
import { AlarmRepository } from './alarm.repository.js';

/** A machine's health at a glance (docs/alarms.md, "Machine health"). */
@Injectable()
export class MachineHealthService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly devices: DeviceDirectory,
    private readonly store: TelemetryStore,
    private readonly alarms: AlarmRepository,
  ) {}

  async health(actor: Actor, espId: string): Promise<MachineHealth> {
    const device = await this.devices.findVisible(actor, espId);
    if (!device) throw new AppError(ErrorCode.DeviceNotFound);
    const [health, lastSales, activeAlarms, settings] = await Promise.all([
      this.store.findHealth(espId),
      this.store.lastSaleTimes(this.dataSource.manager, [espId]),
      this.alarms.activeOf(espId),
      this.alarms.settings(espId),
    ]);
    const lastSaleAt = lastSales.get(espId) ?? health?.lastSaleAt ?? null;
    return {
      machineId: espId,
      online: device.online,
      lastSeen: device.lastSeenAt?.toISOString() ?? null,
      lastSaleAt: lastSaleAt?.toISOString() ?? null,
      telemetry: {
        at: health?.at?.toISOString() ?? null,
        tankLevelPct: health?.tankLevelPct ?? null,
        tdsPpm: health?.tdsPpm ?? null,
        coldWaterTempC: health?.coldWaterTempC ?? null,
        coinBoxPct: health?.coinBoxPct ?? null,
        errorCode: health?.errorCode ?? null,
      },
      activeAlarms,
      maintenanceUntil: settings.maintenanceUntil,
    };
  }
}
