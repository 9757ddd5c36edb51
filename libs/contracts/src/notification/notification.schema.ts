import { z } from 'zod';

/** Alarm severities, most urgent first (docs/alarms.md, "Notifications"). */
export const NOTIFICATION_SEVERITIES = ['critical', 'major', 'minor'] as const;
export const notificationSeveritySchema = z.enum(NOTIFICATION_SEVERITIES);
export type NotificationSeverity = z.infer<typeof notificationSeveritySchema>;

/** A local time of day in APP_TIMEZONE, `HH:MM` on the 24-hour clock. */
export const timeOfDaySchema = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time of day HH:MM (00:00–23:59)');

/**
 * Quiet hours: from `from` up to `to` (local times; `from` later than `to` spans midnight). Email and
 * SMS that are not critical wait until their end.
 */
export const quietHoursSchema = z
  .object({ from: timeOfDaySchema, to: timeOfDaySchema })
  .strict()
  .refine((q) => q.from !== q.to, { message: 'quiet hours must not start and end at the same time', path: ['to'] });
export type QuietHours = z.infer<typeof quietHoursSchema>;

/** A user's notification preferences (the defaults until they change any). */
export const notificationPreferencesSchema = z.object({
  email: z.boolean(),
  sms: z.boolean(),
  minSeverity: notificationSeveritySchema,
  quietHours: quietHoursSchema.nullable(),
});
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;

/** PUT: any subset of the fields; the answer is the whole preferences. */
export const updateNotificationPreferencesSchema = notificationPreferencesSchema.partial().strict();
export type UpdateNotificationPreferences = z.infer<typeof updateNotificationPreferencesSchema>;

export const DEFAULT_NOTIFICATION_PREFERENCES: NotificationPreferences = {
  email: true,
  sms: true,
  minSeverity: 'major',
  quietHours: null,
};
