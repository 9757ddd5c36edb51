import { lazy, Suspense, useState, type FormEvent } from 'react';
import { useTranslation } from '@/lib/i18n';
import { errorDetail } from '@/lib/api-client';
import { Button } from '@/components/ui/button';
import { Loading } from '@/components/ui/loading';
import { SelectField } from '@/components/ui/select-field';
import { StatusMessage } from '@/components/ui/status-message';
import { TELEMETRY_MAX_RANGE_DAYS as TELEMETRY_MAX_DAYS } from '@wv/contracts';
import { useTelemetry } from '../api/get-telemetry';

// recharts is large: the charts load on their own, after the figures.
const TelemetryCharts = lazy(() => import('./telemetry-charts'));

const PERIODS = ['24h', '7d', '31d', 'custom'] as const;
type Period = (typeof PERIODS)[number];
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const SPAN: Record<Exclude<Period, 'custom'>, number> = { '24h': DAY, '7d': 7 * DAY, '31d': TELEMETRY_MAX_DAYS * DAY };

interface Range {
  from: string;
  to: string;
}

/** The last `span` milliseconds, to the minute, so that the same period asks the same question. */
function lastSpan(span: number): Range {
  const to = Math.ceil(Date.now() / 60_000) * 60_000;
  return { from: new Date(to - span).toISOString(), to: new Date(to).toISOString() };
}

/** `YYYY-MM-DD` of the browser's calendar, from its midnight to the next. */
function dayRange(fromDay: string, toDay: string): Range | null {
  const from = new Date(`${fromDay}T00:00:00`);
  const to = new Date(`${toDay}T00:00:00`);
  to.setDate(to.getDate() + 1);
  if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime())) return null;
  if (to <= from || to.getTime() - from.getTime() > TELEMETRY_MAX_DAYS * DAY) return null;
  return { from: from.toISOString(), to: to.toISOString() };
}

/**
 * Tank level, TDS, cold water temperature and coin box of a machine over a chosen period (the last 24 hours
 * by default, at most 31 days), as charts the server has downsampled to at most 2,000 points.
 */
export function TelemetryPanel({ espId }: { espId: string }) {
  const { t } = useTranslation();
  const [period, setPeriod] = useState<Period>('24h');
  const [range, setRange] = useState<Range>(() => lastSpan(DAY));
  const [days, setDays] = useState({ from: '', to: '' });
  const [invalid, setInvalid] = useState(false);
  const telemetry = useTelemetry(espId, range.from, range.to);

  const choose = (next: Period) => {
    setPeriod(next);
    setInvalid(false);
    if (next !== 'custom') setRange(lastSpan(SPAN[next]));
  };

  const onCustom = (event: FormEvent) => {
    event.preventDefault();
    const next = dayRange(days.from, days.to);
    setInvalid(!next);
    if (next) setRange(next);
  };

  return (
    <div className="stack">
      <div className="toolbar telemetry-toolbar">
        <SelectField
          label={t('telemetry.period')}
          value={period}
          options={PERIODS.map((value) => ({ value, label: t(`telemetry.periods.${value}`) }))}
          onChange={(event) => choose(event.target.value as Period)}
        />
        {period === 'custom' && (
          <form className="telemetry-range" onSubmit={onCustom}>
            <div className="field field-inline">
              <label htmlFor={`${espId}-from`}>{t('telemetry.from')}</label>
              <input
                id={`${espId}-from`}
                type="date"
                required
                value={days.from}
                onChange={(e) => setDays((d) => ({ ...d, from: e.target.value }))}
              />
            </div>
            <div className="field field-inline">
              <label htmlFor={`${espId}-to`}>{t('telemetry.to')}</label>
              <input
                id={`${espId}-to`}
                type="date"
                required
                value={days.to}
                onChange={(e) => setDays((d) => ({ ...d, to: e.target.value }))}
              />
            </div>
            <Button type="submit" variant="secondary">
              {t('telemetry.show')}
            </Button>
          </form>
        )}
      </div>
      {invalid && <StatusMessage tone="error">{t('telemetry.badRange')}</StatusMessage>}
      {telemetry.isPending ? (
        <Loading />
      ) : telemetry.isError ? (
        <StatusMessage tone="error">{t('telemetry.loadError', { detail: errorDetail(telemetry.error) })}</StatusMessage>
      ) : telemetry.data.data.length === 0 ? (
        <p className="empty">{t('telemetry.empty')}</p>
      ) : (
        <Suspense fallback={<Loading />}>
          <TelemetryCharts points={telemetry.data.data} spanMs={Date.parse(range.to) - Date.parse(range.from)} />
        </Suspense>
      )}
    </div>
  );
}
