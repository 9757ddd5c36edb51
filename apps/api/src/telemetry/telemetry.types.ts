/** One telemetry publish as the broker received it; parsed by the worker (docs/alarms.md, "Telemetry"). */
export interface RawTelemetryMessage {
  espId: string;
  payload: string;
  receivedAt: string;
}

export interface TelemetryIngestJob {
  messages: RawTelemetryMessage[];
}

export const TELEMETRY_QUEUE = 'telemetry-ingest';

/** A parsed reading; a field that is `undefined` was absent from the payload. */
export interface TelemetryRow {
  espId: string;
  at: Date;
  tankLevelPct?: number;
  tdsPpm?: number;
  coldWaterTempC?: number;
  coinBoxPct?: number;
  errorCode?: string | null;
}

/** The machine_health row: the latest value of each field and the rule state kept between readings. */
export interface HealthRow {
  espId: string;
  at: Date | null;
  tankLevelPct: number | null;
  tdsPpm: number | null;
  coldWaterTempC: number | null;
  coinBoxPct: number | null;
  errorCode: string | null;
  lastSaleAt: Date | null;
  onlineSince: Date | null;
  tempHighStreak: number;
  shortDispenseTimes: Date[];
}
