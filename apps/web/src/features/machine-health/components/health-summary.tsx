import { useTranslation } from '@/lib/i18n';
import { formatDateTime } from '@/lib/dates';
import { errorDetail } from '@/lib/api-client';
import { DetailList } from '@/components/ui/detail-list';
import { Loading } from '@/components/ui/loading';
import { StatusMessage } from '@/components/ui/status-message';
import { useMachineHealth } from '../api/get-machine-health';
import { useLiveMachineHealth } from '../hooks/use-live-machine-health';

const number = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });

/**
 * A machine's state (online, last seen, last sale, active alarms, maintenance) and its latest readings
 * (docs/web-app.md, "Alarms and machine health"), kept live.
 */
export function HealthSummary({ espId }: { espId: string }) {
  const { t } = useTranslation();
  const health = useMachineHealth(espId);
  useLiveMachineHealth(espId);

  if (health.isPending) return <Loading />;
  if (health.isError) {
    return <StatusMessage tone="error">{t('health.loadError', { detail: errorDetail(health.error) })}</StatusMessage>;
  }
  const h = health.data;
  const reading = h.telemetry;
  const value = (key: 'pct' | 'ppm' | 'celsius', v: number | null | undefined) =>
    v === null || v === undefined ? null : t(`health.unit.${key}`, { value: number.format(v) });
  const maintenance = h.maintenanceUntil && Date.parse(h.maintenanceUntil) > Date.now() ? h.maintenanceUntil : null;

  return (
    <div className="health-summary">
      <section className="health-state" aria-label={t('health.state')}>
        <p className={`health-online ${h.online ? 'is-online' : 'is-offline'}`} data-online={h.online}>
          <span className="status-dot" aria-hidden="true" />
          {h.online ? t('health.online') : t('health.offline')}
        </p>
        <DetailList
          items={[
            { label: t('health.lastSeen'), value: h.lastSeen ? formatDateTime(h.lastSeen) : t('common.never') },
            { label: t('health.lastSale'), value: h.lastSaleAt ? formatDateTime(h.lastSaleAt) : t('common.never') },
            { label: t('health.activeAlarms'), value: String(h.activeAlarms.length) },
            {
              label: t('health.maintenanceUntil'),
              value: maintenance ? formatDateTime(maintenance) : t('health.noMaintenance'),
            },
          ]}
        />
      </section>
      <section className="health-readings" aria-label={t('health.latest')}>
        <h3 className="section-title">{t('health.latest')}</h3>
        {reading.at ? (
          <>
            <ul className="reading-grid">
              <Reading
                label={t('health.tankLevel')}
                value={value('pct', reading.tankLevelPct)}
                gauge={reading.tankLevelPct}
              />
              <Reading label={t('health.tds')} value={value('ppm', reading.tdsPpm)} />
              <Reading label={t('health.temperature')} value={value('celsius', reading.coldWaterTempC)} />
              <Reading
                label={t('health.coinBox')}
                value={value('pct', reading.coinBoxPct)}
                gauge={reading.coinBoxPct}
              />
              <Reading label={t('health.errorCode')} value={reading.errorCode ?? t('health.noError')} />
            </ul>
            <p className="muted">{t('health.readingsAt', { time: formatDateTime(reading.at) })}</p>
          </>
        ) : (
          <p className="empty">{t('health.noReadings')}</p>
        )}
      </section>
    </div>
  );
}

function Reading({ label, value, gauge }: { label: string; value: string | null; gauge?: number | null }) {
  return (
    <li className="reading" aria-label={label}>
      <span className="reading-label">{label}</span>
      <span className="reading-value">{value ?? '—'}</span>
      {gauge !== undefined && gauge !== null && (
        <span className="reading-gauge" aria-hidden="true">
          <span style={{ width: `${Math.max(0, Math.min(100, gauge))}%` }} />
        </span>
      )}
    </li>
  );
}
