import { z } from 'zod';
import { roleSchema } from '../common/common.schema.js';

export const loginRequestSchema = z
  .object({
    identifier: z.string().trim().min(1, 'Email or phone number is required').max(254),
    password: z.string().min(1, 'Password is required').max(256),
  })
  .strict();
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const loginResponseSchema = z.object({ token: z.string() });
export type LoginResponse = z.infer<typeof loginResponseSchema>;

/** Tokens carry `sub`, `role`, `iat`, `exp`; `exp - iat` = 1200 (docs/rest-api.md, "Details"). */
export const TOKEN_TTL_SECONDS = 1200;
/** The web app stores now + 1,200,000 ms as the expiry (docs/web-app.md, "Behaviour"). */
export const SESSION_EXPIRY_MS = 1_200_000;
/** The web app's session re-check interval (docs/web-app.md, "Behaviour"). */
export const SESSION_CHECK_INTERVAL_MS = 60_000;

export const tokenPayloadSchema = z.object({
  sub: z.string(),
  role: roleSchema,
  iat: z.number(),
  exp: z.number(),
  /** Issue time in milliseconds: `iat` has one-second resolution, too coarse to tell a token issued
   *  just before a password change from one issued just after it. */
  iatMs: z.number().optional(),
});
export type TokenPayload = z.infer<typeof tokenPayloadSchema>;

/** Login rate limit (docs/rest-api.md, "Conventions"): at most 10 failures in 15 minutes. */
export const LOGIN_MAX_FAILURES = 10;
export const LOGIN_WINDOW_SECONDS = 15 * 60;

export const MIN_PASSWORD_LENGTH = 8;

export const passwordSchema = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(256, 'Password is at most 256 characters');

/** POST /user/password: every other session of the user ends. */
export const changePasswordRequestSchema = z
  .object({
    currentPassword: z.string().min(1, 'Current password is required').max(256),
    newPassword: passwordSchema,
  })
  .strict()
  .refine((b) => b.currentPassword !== b.newPassword, {
    message: 'The new password must differ from the current one',
    path: ['newPassword'],
  });
export type ChangePasswordRequest = z.infer<typeof changePasswordRequestSchema>;
export const changePasswordResponseSchema = z.object({ message: z.string(), token: z.string() });
