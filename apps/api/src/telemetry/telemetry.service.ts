import { Inject, Injectable } from '@nestjs/common';
import {
  ErrorCode,
  TELEMETRY_MAX_POINTS,
  TELEMETRY_MAX_RANGE_DAYS,
  type TelemetryQuery,
  type TelemetryResponse,
} from '@wv/contracts';
import type { Actor } from '../common/actor.js';
import { AppError } from '../common/app-error.js';
import { DeviceDirectory } from '../device/device-directory.js';
import { TelemetryRepository } from './telemetry.repository.js';

const DAY_MS = 24 * 3600 * 1000;
/** The last instant PostgreSQL is asked about: the schemas keep every bound before year 10000. */
const LATEST_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** The telemetry chart data of a machine in the caller's scope (docs/alarms.md, "Telemetry"). */
@Injectable()
export class TelemetryService {
  constructor(
    private readonly telemetry: TelemetryRepository,
    @Inject(DeviceDirectory) private readonly devices: DeviceDirectory,
  ) {}

  async series(actor: Actor, espId: string, query: TelemetryQuery, now = new Date()): Promise<TelemetryResponse> {
    if (!(await this.devices.findVisible(actor, espId))) throw new AppError(ErrorCode.DeviceNotFound);
    const to = query.to
      ? new Date(query.to)
      : query.from
        ? new Date(Math.min(new Date(query.from).getTime() + DAY_MS, LATEST_MS))
        : now;
    const from = query.from ? new Date(query.from) : new Date(to.getTime() - DAY_MS);
    if (from.getTime() >= to.getTime()) throw invalid('from', 'must be before to');
    if (to.getTime() - from.getTime() > TELEMETRY_MAX_RANGE_DAYS * DAY_MS) {
      throw invalid('to', `the period is at most ${TELEMETRY_MAX_RANGE_DAYS} days`);
    }
    return { data: await this.telemetry.series(espId, from, to, TELEMETRY_MAX_POINTS) };
  }
}

function invalid(path: string, message: string): AppError {
  return new AppError(ErrorCode.ValidationFailed, `${path}: ${message}`, [{ path, message }]);
}
