import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';
import { notificationRoutes } from '@wv/contracts';

export const notificationPreferencesKey = ['notification-preferences'] as const;

export const getNotificationPreferences = () => callApi(notificationRoutes.getNotificationPreferences);

export const getNotificationPreferencesQueryOptions = () =>
  queryOptions({ queryKey: notificationPreferencesKey, queryFn: getNotificationPreferences });

/** GET /user/notification-preferences: the defaults (email and SMS on, major and up) until the user changes them. */
export const useNotificationPreferences = () => useQuery(getNotificationPreferencesQueryOptions());
