import { z } from 'zod';
import { espIdSchema, hasAtMostDecimals, isoDateTimeSchema, uuidSchema } from '../common/common.schema.js';

/**
 * Machine health and alarms (docs/alarms.md): the telemetry a machine publishes, the per-machine alarm
 * settings, the alarms and their workflow, and the live events about them.
 */

/** An instant whose UTC time is still in year 9999 (an offset may carry a written 9999-12-31 past it). */
const MAX_INSTANT_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
const instantSchema = isoDateTimeSchema.refine(
  (s) => Date.parse(s) <= MAX_INSTANT_MS,
  'must be before 10000-01-01T00:00:00Z',
);

const pct = z.number().finite().min(0, 'must be between 0 and 100').max(100, 'must be between 0 and 100');

/**
 * `wv/v1/machines/{espId}/telemetry` (docs/device-protocol.md, "Telemetry"). Every field is optional; a
 * field that is absent says nothing (an absent `errorCode` does not clear a device error, `null` does).
 */
export const telemetryPayloadSchema = z
  .object({
    time: isoDateTimeSchema.optional(),
    tankLevelPct: pct.optional(),
    tdsPpm: z.number().finite().min(0).max(100_000).optional(),
    coldWaterTempC: z.number().finite().min(-50).max(150).optional(),
    coinBoxPct: pct.optional(),
    errorCode: z.string().trim().min(1).max(64).nullable().optional(),
  })
  .strict();
export type TelemetryPayload = z.infer<typeof telemetryPayloadSchema>;

export const ALARM_KINDS = [
  'offline',
  'no_sales',
  'short_dispense',
  'low_tank',
  'water_quality',
  'water_temperature',
  'coin_box_full',
  'device_error',
  'sales_gap',
] as const;
export const alarmKindSchema = z.enum(ALARM_KINDS);
export type AlarmKind = z.infer<typeof alarmKindSchema>;

export const ALARM_SEVERITIES = ['critical', 'major', 'minor'] as const;
export const alarmSeveritySchema = z.enum(ALARM_SEVERITIES);
export type AlarmSeverityLevel = z.infer<typeof alarmSeveritySchema>;

/** The severity of each kind (docs/alarms.md, "The alarms"). */
export const ALARM_SEVERITY: Record<AlarmKind, AlarmSeverityLevel> = {
  offline: 'critical',
  no_sales: 'major',
  short_dispense: 'major',
  low_tank: 'major',
  water_quality: 'critical',
  water_temperature: 'minor',
  coin_box_full: 'minor',
  device_error: 'major',
  sales_gap: 'major',
};

export const ALARM_STATUSES = ['open', 'acknowledged', 'cleared'] as const;
export const alarmStatusSchema = z.enum(ALARM_STATUSES);
export type AlarmStatus = z.infer<typeof alarmStatusSchema>;

export const alarmSchema = z.object({
  id: z.string(),
  machineId: z.string(),
  kind: alarmKindSchema,
  severity: alarmSeveritySchema,
  status: alarmStatusSchema,
  openedAt: z.string(),
  acknowledgedAt: z.string().nullable(),
  acknowledgedBy: z.string().nullable(),
  assigneeId: z.string().nullable(),
  clearedAt: z.string().nullable(),
  /** `auto` when its condition ended, else the user who cleared it. */
  clearedBy: z.string().nullable(),
  escalated: z.boolean(),
  details: z.record(z.string(), z.unknown()),
});
export type Alarm = z.infer<typeof alarmSchema>;

export const alarmNoteSchema = z.object({ id: z.string(), userId: z.string(), text: z.string(), at: z.string() });
export type AlarmNote = z.infer<typeof alarmNoteSchema>;

export const alarmNotificationSchema = z.object({
  channel: z.enum(['email', 'sms']),
  to: z.string(),
  status: z.enum(['pending', 'sent', 'failed', 'deferred']),
  attempts: z.number().int(),
  at: z.string(),
});
export type AlarmNotification = z.infer<typeof alarmNotificationSchema>;

export const alarmDetailSchema = alarmSchema.extend({
  notes: z.array(alarmNoteSchema),
  notifications: z.array(alarmNotificationSchema),
});
export type AlarmDetail = z.infer<typeof alarmDetailSchema>;

/** `active` = open or acknowledged (the default). */
export const ALARM_STATUS_FILTERS = ['active', 'open', 'acknowledged', 'cleared', 'all'] as const;

export const alarmListQuerySchema = z
  .object({
    status: z.enum(ALARM_STATUS_FILTERS).default('active'),
    machineId: espIdSchema.optional(),
    kind: alarmKindSchema.optional(),
    page: z.coerce.number().int().min(1).max(1_000_000).default(1),
    limit: z.coerce.number().int().min(1).max(100).default(25),
  })
  .strict();
export type AlarmListQuery = z.infer<typeof alarmListQuerySchema>;

export const alarmListResponseSchema = z.object({ data: z.array(alarmSchema), total: z.number().int() });
export type AlarmListResponse = z.infer<typeof alarmListResponseSchema>;

export const alarmIdParamSchema = z.object({ id: uuidSchema }).strict();
export const assignAlarmBodySchema = z.object({ userId: uuidSchema }).strict();
export type AssignAlarmBody = z.infer<typeof assignAlarmBodySchema>;
export const alarmNoteBodySchema = z
  .object({
    text: z.string().trim().min(1, 'must not be empty').max(1000, 'is at most 1000 characters'),
  })
  .strict();
export type AlarmNoteBody = z.infer<typeof alarmNoteBodySchema>;

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time as HH:MM (00:00–23:59)');
const minutes = z
  .number()
  .int('must be a whole number of minutes')
  .min(1, 'must be at least 1 minute')
  .max(10_080, 'must be at most 10080 minutes (a week)');

/** Thresholds are stored with 2 decimals: more would be answered back rounded. */
const twoDecimals = z
  .number({ error: 'must be a number' })
  .finite()
  .refine((n) => hasAtMostDecimals(n, 2), 'has more than 2 decimals');

/** Per-machine alarm settings (docs/alarms.md, "Settings"); every field has a default. */
export const alarmSettingsSchema = z.object({
  offlineAfterMinutes: minutes,
  noSalesAfterMinutes: minutes,
  salesGapAfterMinutes: minutes,
  /** In APP_TIMEZONE; `from` later than `to` spans midnight; equal means all day. */
  businessHours: z.object({ from: hhmm, to: hhmm }).strict(),
  lowTankPct: twoDecimals.min(0).max(95, 'must be at most 95 (the alarm clears at 5 points above)'),
  maxTdsPpm: twoDecimals.min(0).max(100_000),
  maxColdWaterTempC: twoDecimals.min(-20).max(100),
  /** While in the future no alarm opens for the machine. */
  maintenanceUntil: z.string().nullable(),
});
export type AlarmSettings = z.infer<typeof alarmSettingsSchema>;

export const alarmSettingsUpdateSchema = alarmSettingsSchema
  .extend({ maintenanceUntil: instantSchema.nullable() })
  .partial()
  .strict();
export type AlarmSettingsUpdate = z.infer<typeof alarmSettingsUpdateSchema>;

export const DEFAULT_ALARM_SETTINGS: AlarmSettings = {
  offlineAfterMinutes: 10,
  noSalesAfterMinutes: 120,
  salesGapAfterMinutes: 30,
  businessHours: { from: '06:00', to: '22:00' },
  lowTankPct: 15,
  maxTdsPpm: 500,
  maxColdWaterTempC: 12,
  maintenanceUntil: null,
};

export const telemetryReadingSchema = z.object({
  at: z.string(),
  tankLevelPct: z.number().nullable(),
  tdsPpm: z.number().nullable(),
  coldWaterTempC: z.number().nullable(),
  coinBoxPct: z.number().nullable(),
  errorCode: z.string().nullable(),
});
export type TelemetryReading = z.infer<typeof telemetryReadingSchema>;

export const machineHealthSchema = z.object({
  machineId: z.string(),
  online: z.boolean(),
  lastSeen: z.string().nullable(),
  lastSaleAt: z.string().nullable(),
  /** The latest value of each field (each from the newest reading that carried it); `at` the newest reading. */
  telemetry: telemetryReadingSchema.extend({ at: z.string().nullable() }),
  activeAlarms: z.array(alarmSchema),
  maintenanceUntil: z.string().nullable(),
});
export type MachineHealth = z.infer<typeof machineHealthSchema>;

/** At most 31 days; default the last 24 hours. */
export const TELEMETRY_MAX_RANGE_DAYS = 31;
export const TELEMETRY_MAX_POINTS = 2000;
export const telemetryQuerySchema = z.object({ from: instantSchema.optional(), to: instantSchema.optional() }).strict();
export type TelemetryQuery = z.infer<typeof telemetryQuerySchema>;
export const telemetryResponseSchema = z.object({ data: z.array(telemetryReadingSchema) });
export type TelemetryResponse = z.infer<typeof telemetryResponseSchema>;

/** `alarm.opened` and `alarm.updated` carry the alarm (docs/live-events.md). */
export type AlarmEvent = Alarm;
