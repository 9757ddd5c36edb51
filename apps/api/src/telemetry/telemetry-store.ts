import { Injectable } from '@nestjs/common';
import { TelemetryRepository } from './telemetry.repository.js';

/**
 * Telemetry and the latest health of machines as other domains see them (the alarm engine): readings
 * and health rows written in the caller's transaction, and the reads of the health endpoints.
 */
@Injectable()
export class TelemetryStore {
  constructor(private readonly telemetry: TelemetryRepository) {}

  insertReadings(...args: Parameters<TelemetryRepository['insertReadings']>) {
    return this.telemetry.insertReadings(...args);
  }

  lockHealth(...args: Parameters<TelemetryRepository['lockHealth']>) {
    return this.telemetry.lockHealth(...args);
  }

  saveHealth(...args: Parameters<TelemetryRepository['saveHealth']>) {
    return this.telemetry.saveHealth(...args);
  }

  saveReadings(...args: Parameters<TelemetryRepository['saveReadings']>) {
    return this.telemetry.saveReadings(...args);
  }

  findHealth(...args: Parameters<TelemetryRepository['findHealth']>) {
    return this.telemetry.findHealth(...args);
  }

  noteOnline(...args: Parameters<TelemetryRepository['noteOnline']>) {
    return this.telemetry.noteOnline(...args);
  }

  noteLastSales(...args: Parameters<TelemetryRepository['noteLastSales']>) {
    return this.telemetry.noteLastSales(...args);
  }

  lastSaleTimes(...args: Parameters<TelemetryRepository['lastSaleTimes']>) {
    return this.telemetry.lastSaleTimes(...args);
  }
}
