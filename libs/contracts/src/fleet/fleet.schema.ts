import { z } from 'zod';
import { alarmSeveritySchema } from '../alarm/alarm.schema.js';

/** Days in a machine's sales trend (today last): a sparkline, not a report. */
export const FLEET_TREND_DAYS = 7;

/** Revenue, litres and number of sales over one period. Money and litres as JSON numbers, like every sales view. */
export const fleetFiguresSchema = z.object({
  revenue: z.number(),
  litres: z.number(),
  sales: z.number().int(),
});
export type FleetFigures = z.infer<typeof fleetFiguresSchema>;

/** One machine of the fleet dashboard's table (docs/rest-api.md, "Fleet dashboard"). */
export const fleetMachineSchema = z.object({
  espId: z.string(),
  location: z.string().nullable(),
  /** Where the machine stands (WGS 84 degrees), when someone set it. */
  coordinates: z.object({ latitude: z.number(), longitude: z.number() }).nullable(),
  owner: z.object({ id: z.string(), name: z.string() }).nullable(),
  online: z.boolean(),
  lastSeen: z.string().nullable(),
  today: fleetFiguresSchema,
  /** Revenue of the last FLEET_TREND_DAYS local days, oldest first, today last. */
  trend: z.array(z.number()),
  activeAlarms: z.number().int(),
  worstSeverity: alarmSeveritySchema.nullable(),
});
export type FleetMachine = z.infer<typeof fleetMachineSchema>;

export const fleetMachinesResponseSchema = z.object({
  /** Today in APP_TIMEZONE, the day of `today` and the last day of `trend`. */
  date: z.string(),
  machines: z.array(fleetMachineSchema),
});
export type FleetMachinesResponse = z.infer<typeof fleetMachinesResponseSchema>;

/**
 * Today so far against the same span of yesterday and of the same weekday last week: each period runs
 * from local midnight to the same local time of day (`asOf`), in APP_TIMEZONE.
 */
export const fleetHeadlineSchema = z.object({
  date: z.string(),
  /** Local time of day `HH:MM` up to which the three periods are compared. */
  asOf: z.string(),
  today: fleetFiguresSchema,
  yesterday: fleetFiguresSchema,
  lastWeek: fleetFiguresSchema,
});
export type FleetHeadline = z.infer<typeof fleetHeadlineSchema>;

/**
 * A machine's position as the device settings page sets it: WGS 84 degrees, both or neither (null clears).
 * Stored with six decimals.
 */
export const machineCoordinatesBodySchema = z
  .object({
    latitude: z.number().min(-90, 'must be between -90 and 90').max(90, 'must be between -90 and 90').nullable(),
    longitude: z.number().min(-180, 'must be between -180 and 180').max(180, 'must be between -180 and 180').nullable(),
  })
  .strict()
  .refine((c) => (c.latitude === null) === (c.longitude === null), {
    message: 'latitude and longitude are given together, or both null',
    path: ['longitude'],
  });
export type MachineCoordinatesBody = z.infer<typeof machineCoordinatesBodySchema>;

export const machineCoordinatesSchema = z.object({
  espId: z.string(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
});
export type MachineCoordinates = z.infer<typeof machineCoordinatesSchema>;
