import { useTranslation } from '@/lib/i18n';
import type { Alarm } from '@wv/contracts';

/** Severity, status and escalation of an alarm as coloured labels. */
export function AlarmBadges({ alarm }: { alarm: Alarm }) {
  const { t } = useTranslation();
  return (
    <span className="alarm-badges">
      <span className={`badge alarm-severity alarm-severity-${alarm.severity}`} data-severity={alarm.severity}>
        {t(`alarm.severity.${alarm.severity}`)}
      </span>
      <span className={`badge alarm-status alarm-status-${alarm.status}`} data-status={alarm.status}>
        {t(`alarm.status.${alarm.status}`)}
      </span>
      {alarm.escalated && <span className="badge alarm-escalated">{t('alarms.escalated')}</span>}
    </span>
  );
}
