import type { ALARM_STATUS_FILTERS } from '@wv/contracts';

/** The list's status filter: `active` is open or acknowledged (the default). */
export type AlarmStatusFilter = (typeof ALARM_STATUS_FILTERS)[number];

/** What a list of alarms is filtered by (GET /alarms). */
export interface AlarmsQuery {
  status: AlarmStatusFilter;
  machineId?: string;
  kind?: string;
  page: number;
  limit: number;
}

/** Query keys of the alarm views; live events and actions patch and refresh them through these. */
export const alarmKeys = {
  all: ['alarms'] as const,
  lists: ['alarms', 'list'] as const,
  list: (query: AlarmsQuery) => ['alarms', 'list', query] as const,
  activeCount: ['alarms', 'active-count'] as const,
  details: ['alarms', 'detail'] as const,
  detail: (id: string) => ['alarms', 'detail', id] as const,
};
