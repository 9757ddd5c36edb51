import { useTranslation } from '@/lib/i18n';
import { useActiveAlarmCount } from '../api/get-active-alarm-count';

/** The number of active alarms beside the navigation's Alarms link, kept live (AlarmLive refreshes it). */
export function ActiveAlarmBadge() {
  const { t } = useTranslation();
  const count = useActiveAlarmCount().data ?? 0;
  if (!count) return null;
  return (
    <span className="nav-badge nav-badge-alarm" aria-label={t('alarms.badge', { count })} data-count={count}>
      {count}
    </span>
  );
}
