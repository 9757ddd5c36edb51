import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useTranslation } from '@/lib/i18n';
import type { TelemetryReading } from '@wv/contracts';

type Series = 'tankLevelPct' | 'tdsPpm' | 'coldWaterTempC' | 'coinBoxPct';

const number = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });
const TWO_DAYS = 2 * 24 * 3_600_000;
const FEW_POINTS = 30;

/**
 * The four readings of a machine over time, one small chart each, sized for a phone first. Under each chart
 * the figures in words (readings, lowest to highest), for screen readers and for a glance.
 */
export default function TelemetryCharts({ points, spanMs }: { points: TelemetryReading[]; spanMs: number }) {
  const { t, i18n } = useTranslation();
  const data = points.map((p) => ({ ...p, time: Date.parse(p.at) }));
  const tick = new Intl.DateTimeFormat(
    i18n.language,
    spanMs <= TWO_DAYS ? { hour: '2-digit', minute: '2-digit' } : { day: 'numeric', month: 'short' },
  );
  const full = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });

  const charts: {
    key: Series;
    title: string;
    unit: 'pct' | 'ppm' | 'celsius';
    color: string;
    domain?: [number, number];
  }[] = [
    { key: 'tankLevelPct', title: t('health.tankLevel'), unit: 'pct', color: '#0b5c8a', domain: [0, 100] },
    { key: 'tdsPpm', title: t('health.tds'), unit: 'ppm', color: '#b45309' },
    { key: 'coldWaterTempC', title: t('health.temperature'), unit: 'celsius', color: '#5aa9e6' },
    { key: 'coinBoxPct', title: t('health.coinBox'), unit: 'pct', color: '#15803d', domain: [0, 100] },
  ];

  return (
    <div className="chart-grid telemetry-charts">
      {charts.map((chart) => {
        const values = data.map((p) => p[chart.key]).filter((v): v is number => typeof v === 'number');
        const format = (v: number) => t(`health.unit.${chart.unit}`, { value: number.format(v) });
        const summary = values.length
          ? `${t('telemetry.points', { count: values.length })} · ${t('telemetry.range', {
              min: format(Math.min(...values)),
              max: format(Math.max(...values)),
            })}`
          : t('telemetry.empty');
        return (
          <figure key={chart.key} className="chart-card" aria-label={chart.title}>
            <figcaption className="chart-title">{chart.title}</figcaption>
            {/* The drawing is for the eye (the figures are in words below): nothing in it takes the focus. */}
            <div className="chart-box" aria-hidden="true">
              <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 320, height: 180 }}>
                <LineChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} accessibilityLayer={false}>
                  <CartesianGrid strokeDasharray="3 3" vertical={false} />
                  <XAxis
                    dataKey="time"
                    type="number"
                    scale="time"
                    domain={['dataMin', 'dataMax']}
                    tick={{ fontSize: 11 }}
                    tickFormatter={(v: number) => tick.format(v)}
                  />
                  <YAxis width={44} tick={{ fontSize: 11 }} domain={chart.domain ?? ['auto', 'auto']} />
                  <Tooltip labelFormatter={(v) => full.format(Number(v))} formatter={(v) => format(Number(v))} />
                  <Line
                    type="monotone"
                    dataKey={chart.key}
                    name={chart.title}
                    stroke={chart.color}
                    // A few readings (or a single one) show as points; many as a line alone.
                    dot={values.length <= FEW_POINTS ? { r: 3 } : false}
                    connectNulls
                    isAnimationActive={false}
                  />
                </LineChart>
              </ResponsiveContainer>
            </div>
            <p className="chart-total">{summary}</p>
          </figure>
        );
      })}
    </div>
  );
}
