import { z } from 'zod';
import { espIdSchema, messageResponseSchema, userIdParamSchema, uuidSchema } from '../common/common.schema.js';
import { loginResponseSchema } from '../auth/auth.schema.js';
import { route, type RouteDef } from '../routes/route-def.js';

/** `/admin/users/:userId/devices/:esp32Id`. */
export const userDeviceParamSchema = z.object({ userId: uuidSchema, esp32Id: espIdSchema }).strict();
export type UserDeviceParam = z.infer<typeof userDeviceParamSchema>;

/** POST /auth/refresh answers like a sign-in: a new token for the same user. */
export const refreshResponseSchema = loginResponseSchema;
export type RefreshResponse = z.infer<typeof refreshResponseSchema>;

/** Session and account administration (docs/rest-api.md, "Accounts and sessions"). */
export const accountRoutes = {
  refreshToken: route({
    method: 'POST',
    path: '/auth/refresh',
    access: ['admin', 'manager', 'attendant'],
    summary: 'A new token for the signed-in user; the current one keeps working until it expires',
    tag: 'auth',
    status: 200,
    response: refreshResponseSchema,
  }),
  unassignUserDevice: route({
    method: 'DELETE',
    path: '/admin/users/:userId/devices/:esp32Id',
    access: ['admin'],
    summary: 'Take a machine from a user: it becomes unowned (or, for an attendant, has no attendant)',
    tag: 'users',
    status: 200,
    params: userDeviceParamSchema,
    response: messageResponseSchema,
  }),
  deactivateUser: route({
    method: 'POST',
    path: '/admin/users/:userId/deactivate',
    access: ['admin'],
    summary: 'Deactivate an account: it cannot sign in and its sessions end at once; history is kept',
    tag: 'users',
    status: 200,
    params: userIdParamSchema,
    response: messageResponseSchema,
  }),
  reactivateUser: route({
    method: 'POST',
    path: '/admin/users/:userId/reactivate',
    access: ['admin'],
    summary: 'Let a deactivated account sign in again',
    tag: 'users',
    status: 200,
    params: userIdParamSchema,
    response: messageResponseSchema,
  }),
} as const satisfies Record<string, RouteDef>;
