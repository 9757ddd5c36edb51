import { z } from 'zod';
import { espIdSchema, hasAtMostDecimals } from '../common/common.schema.js';

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

/**
 * Tariffs and calibrations: decimal numbers ≥ 0, as strings or numbers (the web app's form sends text),
 * with no more decimals than their columns keep (tariffs numeric(14,2), calibrations numeric(14,3)),
 * so that what is stored is what was sent. A string must be plain decimal digits: Number() would also
 * read "0x3", "0b100", "1e3" and "+7".
 */
const decimal = (label: string, places: 2 | 3) =>
  z.union([z.number(), z.string().trim().min(1, `${label} is required`)]).transform((v, ctx) => {
    const plain = places === 2 ? /^\d+(\.\d{1,2})?$/ : /^\d+(\.\d{1,3})?$/;
    const ok = typeof v === 'number' ? v >= 0 && hasAtMostDecimals(v, places) : plain.test(v);
    const n = Number(v);
    if (!ok || !Number.isFinite(n) || n > 1e9) {
      ctx.addIssue({
        code: 'custom',
        message: `${label} must be a decimal number from 0 to 1000000000 with at most ${places} decimals`,
      });
      return z.NEVER;
    }
    return n;
  });

export const insertTariffsRequestSchema = z
  .object({
    espId: espIdSchema,
    coldTariffs: decimal('Cold tariffs', 2),
    freshTariffs: decimal('Fresh tariffs', 2),
    coldCalb: decimal('Cold calibration', 3),
    freshCalb: decimal('Fresh calibration', 3),
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
