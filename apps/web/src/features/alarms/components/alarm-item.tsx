import { useId, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from '@/lib/i18n';
import { formatDateTime } from '@/lib/dates';
import { errorDetail } from '@/lib/api-client';
import { isSessionActive, useSession } from '@/lib/session';
import { Button } from '@/components/ui/button';
import { StatusMessage } from '@/components/ui/status-message';
import type { Alarm } from '@wv/contracts';
import { useAcknowledgeAlarm } from '../api/acknowledge-alarm';
import { usePeople } from '../api/get-assignees';
import { AlarmBadges } from './alarm-badges';
import { AlarmDetailPanel } from './alarm-detail-panel';
import { useAlarmWords } from './alarm-labels';

interface AlarmItemProps {
  alarm: Alarm;
  machineHref?: (machineId: string) => string;
}

/**
 * One alarm: what, where and since when, who has it, and Acknowledge while it is open (attendants too).
 * Details opens its notes, the messages sent about it, and, for the owner manager or an admin, Assign and Clear.
 */
export function AlarmItem({ alarm, machineHref }: AlarmItemProps) {
  const { t } = useTranslation();
  const words = useAlarmWords();
  const session = useSession();
  const active = isSessionActive(session) ? session : null;
  const people = usePeople(active?.role ?? null, alarm.machineId);
  const acknowledge = useAcknowledgeAlarm();
  const [open, setOpen] = useState(false);
  const [result, setResult] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const panelId = useId();

  const nameOf = (userId: string) =>
    userId === active?.userId ? t('common.you') : (people.known.find((p) => p.userId === userId)?.name ?? userId);
  const kind = words.kind(alarm.kind);
  const facts = words.facts(alarm);
  const history = [
    alarm.assigneeId ? t('alarms.assignedTo', { name: nameOf(alarm.assigneeId) }) : t('alarms.unassigned'),
    alarm.acknowledgedBy && alarm.acknowledgedAt
      ? t('alarms.acknowledgedBy', { name: nameOf(alarm.acknowledgedBy), time: formatDateTime(alarm.acknowledgedAt) })
      : null,
    alarm.clearedAt
      ? alarm.clearedBy === 'auto' || !alarm.clearedBy
        ? t('alarms.clearedAuto', { time: formatDateTime(alarm.clearedAt) })
        : t('alarms.clearedBy', { name: nameOf(alarm.clearedBy), time: formatDateTime(alarm.clearedAt) })
      : null,
  ].filter((text): text is string => text !== null);

  const onAcknowledge = () => {
    setResult(null);
    acknowledge.mutate(alarm.id, {
      onSuccess: () => setResult({ tone: 'success', text: t('alarms.acknowledged') }),
      onError: (error) => setResult({ tone: 'error', text: t('alarms.actionError', { detail: errorDetail(error) }) }),
    });
  };

  return (
    <li
      className={`alarm-item alarm-item-${alarm.severity} alarm-item-${alarm.status}`}
      aria-label={t('alarms.newAlarmText', { kind, machineId: alarm.machineId })}
      data-alarm-id={alarm.id}
    >
      <div className="alarm-head">
        <h3 className="alarm-kind">{kind}</h3>
        <AlarmBadges alarm={alarm} />
      </div>
      <p className="alarm-where">
        {machineHref ? (
          <Link to={machineHref(alarm.machineId)}>{t('alarms.machineLabel', { machineId: alarm.machineId })}</Link>
        ) : (
          t('alarms.machineLabel', { machineId: alarm.machineId })
        )}
        <span className="muted"> · {t('alarms.openedAt', { time: formatDateTime(alarm.openedAt) })}</span>
      </p>
      {facts.length > 0 && (
        <ul className="alarm-facts">
          {facts.map((fact) => (
            <li key={fact}>{fact}</li>
          ))}
        </ul>
      )}
      <p className="alarm-people muted">
        {history.map((text, index) => (
          <span key={text}>
            {index > 0 && ' · '}
            <span>{text}</span>
          </span>
        ))}
      </p>
      <div className="actions alarm-actions">
        {alarm.status === 'open' && (
          <Button busy={acknowledge.isPending} onClick={onAcknowledge}>
            {t('alarms.acknowledge')}
          </Button>
        )}
        <Button variant="secondary" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen((v) => !v)}>
          {open ? t('alarms.hideDetails') : t('alarms.details')}
        </Button>
      </div>
      {result && <StatusMessage tone={result.tone}>{result.text}</StatusMessage>}
      <div id={panelId} hidden={!open}>
        {open && (
          <AlarmDetailPanel
            alarm={alarm}
            canManage={active?.role === 'manager' || active?.role === 'admin'}
            candidates={
              active?.role === 'manager' && active.userId
                ? [{ userId: active.userId, name: t('common.you') }, ...people.candidates]
                : people.candidates
            }
            nameOf={nameOf}
          />
        )}
      </div>
    </li>
  );
}
