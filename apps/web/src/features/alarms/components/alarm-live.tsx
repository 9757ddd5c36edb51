import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { useTranslation } from '@/lib/i18n';
import type { Alarm } from '@wv/contracts';
import { useLiveAlarms } from '../hooks/use-live-alarms';
import { useAlarmWords } from './alarm-labels';

const MAX_NOTICES = 3;

/**
 * Mounted on every page of a signed-in user: keeps the alarm views and the navigation's count current and
 * shows a notice when an alarm opens, except on the Alarms screen itself, which lists it.
 */
export function AlarmLive({ alarmsHref }: { alarmsHref: string }) {
  const { t } = useTranslation();
  const words = useAlarmWords();
  const { pathname } = useLocation();
  const [notices, setNotices] = useState<Alarm[]>([]);
  const onAlarms = pathname === alarmsHref;

  useLiveAlarms((alarm) => {
    if (!onAlarms) setNotices((list) => [alarm, ...list.filter((a) => a.id !== alarm.id)].slice(0, MAX_NOTICES));
  });

  const shown = onAlarms ? [] : notices;
  if (shown.length === 0) return null;
  return (
    <div className="notices alarm-notices" aria-live="assertive">
      {shown.map((alarm) => (
        <div key={alarm.id} className={`notice alarm-notice alarm-notice-${alarm.severity}`} role="alert">
          <p className="notice-text">
            <strong>{t('alarms.newAlarm')}:</strong>{' '}
            {t('alarms.newAlarmText', { kind: words.kind(alarm.kind), machineId: alarm.machineId })}
          </p>
          <div className="notice-actions">
            <Link className="btn btn-primary btn-sm" to={alarmsHref} onClick={() => setNotices([])}>
              {t('alarms.view')}
            </Link>
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              onClick={() => setNotices((list) => list.filter((a) => a.id !== alarm.id))}
            >
              {t('alarms.dismiss')}
            </button>
          </div>
        </div>
      ))}
    </div>
  );
}
