import { Inject, Injectable } from '@nestjs/common';
import {
  ErrorCode,
  type FleetFigures,
  type FleetHeadline,
  type FleetMachinesResponse,
  type MachineCoordinates,
  type MachineCoordinatesBody,
} from '@wv/contracts';
import { DataSource } from 'typeorm';
import { AuditTrail } from '../audit/audit-trail.js';
import { AppError } from '../common/app-error.js';
import { DeviceDirectory } from '../device/device-directory.js';
import type { Actor } from '../common/actor.js';
import { localClock } from '../common/local-time.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { FleetRepository, type CoordinatesRow, type FigureRow } from './fleet.repository.js';

/** Numeric text to a JSON number at the edge, as every sales view answers (docs/rest-api.md, "Details"). */
const figures = (row: FigureRow): FleetFigures => ({
  revenue: Number(row.revenue),
  litres: Number(row.litres),
  sales: row.sales,
});

/** The fleet dashboard: the machine table and the headline row, scoped by role and owner. */
@Injectable()
export class FleetService {
  constructor(
    private readonly repository: FleetRepository,
    private readonly devices: DeviceDirectory,
    private readonly audit: AuditTrail,
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async machines(actor: Actor, now = new Date()): Promise<FleetMachinesResponse> {
    const rows = await this.repository.machines(actor, now);
    return {
      date: rows[0]?.date ?? localClock(this.config.timezone, now).day,
      machines: rows.map((r) => ({
        espId: r.espId,
        location: r.location,
        coordinates:
          r.latitude === null || r.longitude === null
            ? null
            : { latitude: Number(r.latitude), longitude: Number(r.longitude) },
        owner: r.ownerId ? { id: r.ownerId, name: `${r.ownerFirstName ?? ''} ${r.ownerLastName ?? ''}`.trim() } : null,
        online: r.online,
        lastSeen: r.lastSeen ? r.lastSeen.toISOString() : null,
        today: figures(r),
        trend: r.trend.map(Number),
        activeAlarms: r.activeAlarms,
        worstSeverity: r.worstSeverity,
      })),
    };
  }

  async headline(actor: Actor, now = new Date()): Promise<FleetHeadline> {
    const row = await this.repository.headline(actor, now);
    return {
      date: row.date,
      asOf: row.asOf,
      today: figures(row.today),
      yesterday: figures(row.yesterday),
      lastWeek: figures(row.lastWeek),
    };
  }

  async coordinates(actor: Actor, espId: string): Promise<MachineCoordinates> {
    if (!(await this.devices.findVisible(actor, espId))) throw new AppError(ErrorCode.DeviceNotFound);
    return position(espId, (await this.repository.coordinates(this.dataSource.manager, espId))!);
  }

  /** Sets or clears where a machine stands; the change is audited with its before and after. */
  async setCoordinates(actor: Actor, espId: string, body: MachineCoordinatesBody): Promise<MachineCoordinates> {
    if (!(await this.devices.findVisible(actor, espId))) throw new AppError(ErrorCode.DeviceNotFound);
    return this.dataSource.transaction(async (m) => {
      const before = position(espId, (await this.repository.coordinates(m, espId, true))!);
      const after = position(espId, await this.repository.setCoordinates(m, espId, body.latitude, body.longitude));
      await this.audit.record(m, {
        actorId: actor.userId,
        action: 'device.coordinates_updated',
        entity: 'device',
        entityId: espId,
        before: { latitude: before.latitude, longitude: before.longitude },
        after: { latitude: after.latitude, longitude: after.longitude },
      });
      return after;
    });
  }
}

const position = (espId: string, row: CoordinatesRow): MachineCoordinates => ({
  espId,
  latitude: row.latitude === null ? null : Number(row.latitude),
  longitude: row.longitude === null ? null : Number(row.longitude),
});
