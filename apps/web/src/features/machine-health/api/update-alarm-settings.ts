import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';
import { alarmRoutes, type AlarmSettingsUpdate } from '@wv/contracts';
import { healthKeys } from './health-keys';

export const updateAlarmSettings = ({ espId, changes }: { espId: string; changes: AlarmSettingsUpdate }) =>
  callApi(alarmRoutes.putAlarmSettings, { params: { espId }, body: changes });

/** PUT /machines/{espId}/alarm-settings: sends what changed; the answer is the whole settings. */
export function useUpdateAlarmSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAlarmSettings,
    onSuccess: (settings, { espId }) => {
      queryClient.setQueryData(healthKeys.alarmSettings(espId), settings);
      // The health page shows the maintenance window too.
      void queryClient.invalidateQueries({ queryKey: healthKeys.health(espId) });
    },
  });
}
