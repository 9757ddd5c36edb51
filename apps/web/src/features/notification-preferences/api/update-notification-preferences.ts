import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';
import { notificationRoutes, type UpdateNotificationPreferences } from '@wv/contracts';
import { notificationPreferencesKey } from './get-notification-preferences';

export const updateNotificationPreferences = (body: UpdateNotificationPreferences) =>
  callApi(notificationRoutes.updateNotificationPreferences, { body });

/** PUT /user/notification-preferences: the answer is the whole preferences, shown as saved. */
export function useUpdateNotificationPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateNotificationPreferences,
    onSuccess: (saved) => queryClient.setQueryData(notificationPreferencesKey, saved),
  });
}
