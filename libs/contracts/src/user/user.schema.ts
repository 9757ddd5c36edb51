import { z } from 'zod';
import { espIdSchema, roleSchema, uuidSchema } from '../common/common.schema.js';
import { passwordSchema } from '../auth/auth.schema.js';
import { normalizePhone } from '../common/phone.js';

const name = (label: string) =>
  z.string().trim().min(1, `${label} is required`).max(100, `${label} is at most 100 characters`);

export const phoneSchema = z
  .string()
  .trim()
  .min(1, 'Phone number is required')
  .max(32)
  .transform((value, ctx) => {
    const e164 = normalizePhone(value);
    if (!e164) {
      ctx.addIssue({ code: 'custom', message: 'Phone number is not valid' });
      return z.NEVER;
    }
    return e164;
  });

export const emailSchema = z.string().trim().toLowerCase().max(254).pipe(z.email('Email is not valid'));

const locationSchema = z.string().trim().min(1, 'Location is required').max(200);
const machineLocationSchema = z.string().trim().min(1, 'Machine location is required').max(200);

/** POST /admin/register-user (admin). */
export const registerUserRequestSchema = z
  .object({
    userId: uuidSchema,
    firstName: name('First name'),
    lastName: name('Last name'),
    username: name('Username'),
    email: emailSchema,
    password: passwordSchema,
    phoneNumber: phoneSchema,
    location: locationSchema,
    esp32Id: espIdSchema,
    machine_location: machineLocationSchema,
    role: z.enum(['manager', 'admin']).optional(),
  })
  .strict();
export type RegisterUserRequest = z.input<typeof registerUserRequestSchema>;
export type RegisterUserCommand = z.output<typeof registerUserRequestSchema>;

/**
 * POST /attendant/user/register-user (manager). Email is optional (its placeholder says "Optional", docs/web-app.md,
 * "Screens").
 */
export const registerAttendantRequestSchema = z
  .object({
    userId: uuidSchema,
    firstName: name('First name'),
    lastName: name('Last name'),
    /** The attendant's own username, unique like every user's (case-insensitive). */
    username: name('Username'),
    /** The company the attendant works for; several attendants may share it. */
    companyName: name('Company name').optional().nullable(),
    email: z
      .union([z.literal('').transform(() => undefined), emailSchema])
      .optional()
      .nullable(),
    password: passwordSchema,
    phoneNumber: phoneSchema,
    location: locationSchema,
    esp32Id: espIdSchema,
    machine_location: machineLocationSchema,
  })
  .strict();
export type RegisterAttendantRequest = z.input<typeof registerAttendantRequestSchema>;
export type RegisterAttendantCommand = z.output<typeof registerAttendantRequestSchema>;

/** POST /add/user/devices. */
export const addUserDeviceRequestSchema = z
  .object({ userId: uuidSchema, esp32Id: espIdSchema, machine_location: machineLocationSchema })
  .strict();
export type AddUserDeviceRequest = z.infer<typeof addUserDeviceRequestSchema>;

/** The languages of the web app and of every email and SMS (docs/alarms.md, "Languages"). */
export const USER_LANGUAGES = ['en', 'sw'] as const;
export type UserLanguage = (typeof USER_LANGUAGES)[number];
export const userLanguageSchema = z.enum(USER_LANGUAGES, { error: 'must be en or sw' });

export const userInfoSchema = z.object({
  firstName: z.string(),
  lastName: z.string(),
  username: z.string(),
  email: z.string().nullable(),
  phoneNumber: z.string(),
  location: z.string(),
  language: userLanguageSchema,
});
export type UserInfo = z.infer<typeof userInfoSchema>;

/** PUT /user/language: the caller's language, kept on the server. */
export const setLanguageRequestSchema = z.object({ language: userLanguageSchema }).strict();
export type SetLanguageRequest = z.infer<typeof setLanguageRequestSchema>;

export const esp32IdRowSchema = z.object({ esp32Id: z.string(), machine_location: z.string().nullable() });
export type Esp32IdRow = z.infer<typeof esp32IdRowSchema>;

export const adminUserRowSchema = z.object({
  userId: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  username: z.string(),
  email: z.string().nullable(),
  phoneNumber: z.string(),
  location: z.string(),
  role: roleSchema,
  devices: z.array(esp32IdRowSchema),
  /** False once an admin deactivated the account (docs/rest-api.md, "Accounts and sessions"). */
  active: z.boolean(),
  /** For attendants: the manager who created them, whose machines they may be given. */
  managerId: z.string().nullable(),
});
export type AdminUserRow = z.infer<typeof adminUserRowSchema>;

export const attendantRowSchema = z.object({
  userId: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  phoneNumber: z.string(),
  esp32Id: z.string().nullable(),
});
export type AttendantRow = z.infer<typeof attendantRowSchema>;

export const attendantInfoSchema = z.object({ firstName: z.string(), lastName: z.string() });
export type AttendantInfo = z.infer<typeof attendantInfoSchema>;
