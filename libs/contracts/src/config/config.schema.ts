import { z } from 'zod';
import { espIdSchema } from '../common/common.schema.js';

/** PUT /update_wifi_credentials: both empty clears the credentials. */
export const updateWifiRequestSchema = z
  .object({
    espId: espIdSchema,
    ssid: z.string().max(32, 'SSID is at most 32 characters'),
    password: z.string().max(63, 'Wi-Fi password is at most 63 characters'),
  })
  .strict()
  .refine((b) => (b.ssid === '') === (b.password === '') || b.ssid !== '', {
    message: 'SSID is required when a password is given',
    path: ['ssid'],
  });
export type UpdateWifiRequest = z.infer<typeof updateWifiRequestSchema>;

export const wifiCredentialsSchema = z.object({ ssid: z.string(), password: z.string() });
export type WifiCredentials = z.infer<typeof wifiCredentialsSchema>;

/** Tariffs and calibrations: decimal numbers ≥ 0, as strings or numbers (the seed's form sends text). */
const decimal = (label: string) =>
  z.union([z.number(), z.string().trim().min(1, `${label} is required`)]).transform((v, ctx) => {
    const n = typeof v === 'number' ? v : /^\d+(\.\d+)?$/.test(v) ? Number(v) : NaN;
    if (!Number.isFinite(n) || n < 0 || n > 1e9) {
      ctx.addIssue({ code: 'custom', message: `${label} must be a decimal number ≥ 0` });
      return z.NEVER;
    }
    return n;
  });

export const insertTariffsRequestSchema = z
  .object({
    espId: espIdSchema,
    coldTariffs: decimal('Cold tariffs'),
    freshTariffs: decimal('Fresh tariffs'),
    coldCalb: decimal('Cold calibration'),
    freshCalb: decimal('Fresh calibration'),
  })
  .strict();
export type InsertTariffsRequest = z.input<typeof insertTariffsRequestSchema>;
export type InsertTariffsCommand = z.output<typeof insertTariffsRequestSchema>;

export const machineSettingsSchema = z.object({
  cold_tariffs: z.number(),
  fresh_tariffs: z.number(),
  fresh_calb: z.number(),
  cold_calb: z.number(),
});
export type MachineSettings = z.infer<typeof machineSettingsSchema>;

/** Config state shown by the web app: is the newest version applied on the machine? */
export const configStateSchema = z.object({
  version: z.number().int(),
  appliedVersion: z.number().int(),
  appliedAt: z.string().nullable(),
});
export type ConfigState = z.infer<typeof configStateSchema>;
