import type { Alarm, AlarmSeverityLevel, FleetMachine } from '@wv/contracts';
import { Link } from 'react-router';
import { Loading } from '@/components/ui/loading';
import { StatusMessage } from '@/components/ui/status-message';
import { paths } from '@/config/paths';
import { formatDateTime } from '@/lib/dates';
import { useTranslation } from '@/lib/i18n';

const RANK: Record<AlarmSeverityLevel, number> = { critical: 0, major: 1, minor: 2 };

interface MachineAttention {
  espId: string;
  alarms: Alarm[];
  worst: AlarmSeverityLevel;
  since: string;
}

/** The active alarms by machine: the worst severity first, then the machine waiting longest. */
export function machinesNeedingAttention(alarms: readonly Alarm[]): MachineAttention[] {
  const byMachine = new Map<string, Alarm[]>();
  for (const alarm of alarms) byMachine.set(alarm.machineId, [...(byMachine.get(alarm.machineId) ?? []), alarm]);
  return [...byMachine]
    .map(([espId, list]) => ({
      espId,
      alarms: [...list].sort((a, b) => RANK[a.severity] - RANK[b.severity]),
      worst: list.reduce<AlarmSeverityLevel>((w, a) => (RANK[a.severity] < RANK[w] ? a.severity : w), 'minor'),
      since: list.reduce((s, a) => (a.openedAt < s ? a.openedAt : s), list[0]!.openedAt),
    }))
    .sort((a, b) => RANK[a.worst] - RANK[b.worst] || a.since.localeCompare(b.since));
}

interface NeedsAttentionProps {
  /** The first page of active alarms (GET /alarms), newest first. */
  alarms: { data: Alarm[]; total: number } | undefined;
  isError: boolean;
  machines: readonly FleetMachine[] | undefined;
}

/** Machines with open or acknowledged alarms (docs/web-app.md, "Fleet dashboard"), each leading to its alarms. */
export function NeedsAttention({ alarms, isError, machines }: NeedsAttentionProps) {
  const { t } = useTranslation();
  const title = t('fleet.attention.title');
  let body;
  if (isError) body = <StatusMessage tone="error">{t('fleet.attention.error')}</StatusMessage>;
  else if (!alarms) body = <Loading />;
  else if (alarms.data.length === 0) body = <p className="empty">{t('fleet.attention.empty')}</p>;
  else {
    const location = new Map(machines?.map((m) => [m.espId, m.location]));
    body = (
      <>
        <ul className="fleet-attention-list">
          {machinesNeedingAttention(alarms.data).map((m) => (
            <li key={m.espId} className={`fleet-attention-item alarm-severity-border-${m.worst}`} data-esp-id={m.espId}>
              <div>
                <Link to={paths.manager.machine.getHref(m.espId)}>
                  <strong>{m.espId}</strong>
                </Link>{' '}
                <span className="muted">{location.get(m.espId) ?? ''}</span>
              </div>
              <div className="fleet-attention-alarms">
                {m.alarms.map((a) => (
                  <span key={a.id} className={`badge alarm-severity alarm-severity-${a.severity}`}>
                    {t(`alarm.kind.${a.kind}`)}
                  </span>
                ))}
              </div>
              <div className="muted">
                {t('fleet.attention.since', { time: formatDateTime(m.since) })} ·{' '}
                <Link to={paths.alarms.getHref(m.espId)}>{t('fleet.attention.open')}</Link>
              </div>
            </li>
          ))}
        </ul>
        {alarms.total > alarms.data.length && (
          <p className="muted">
            {t('fleet.attention.more', { shown: alarms.data.length, total: alarms.total })}{' '}
            <Link to={paths.alarms.getHref()}>{t('fleet.attention.all')}</Link>
          </p>
        )}
      </>
    );
  }
  return (
    <section aria-label={title} className="card fleet-attention">
      <h2 className="section-title">{title}</h2>
      {body}
    </section>
  );
}
