import { notificationPreferencesSchema, updateNotificationPreferencesSchema } from './notification.schema.js';
import { route } from '../routes/route-def.js';

/** Each user's own notification preferences (docs/alarms.md, "Notifications"). */
export const notificationRoutes = {
  getNotificationPreferences: route({
    method: 'GET',
    path: '/user/notification-preferences',
    access: ['admin', 'manager', 'attendant'],
    summary: 'The caller’s notification preferences (channels, least severity, quiet hours)',
    tag: 'notifications',
    status: 200,
    response: notificationPreferencesSchema,
  }),
  updateNotificationPreferences: route({
    method: 'PUT',
    path: '/user/notification-preferences',
    access: ['admin', 'manager', 'attendant'],
    summary: 'Change any of the caller’s notification preferences; answers the whole preferences',
    tag: 'notifications',
    status: 200,
    body: updateNotificationPreferencesSchema,
    response: notificationPreferencesSchema,
  }),
};
