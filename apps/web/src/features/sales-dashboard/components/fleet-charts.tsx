import { useId, type ReactElement, type ReactNode } from 'react';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Legend,
  Pie,
  PieChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { FleetOverview } from '@wv/contracts';
import { env } from '@/config/env';
import { formatLitres, formatMoney, formatNumber, formatWaterType } from '@/lib/format';
import { useTranslation } from '@/lib/i18n';

const COLORS = {
  coin: '#14a3c7',
  card: '#0b5c8a',
  online: '#15803d',
  offline: '#9aa5b1',
  pure: '#0b5c8a',
  fresh: '#22a06b',
  cold: '#5aa9e6',
} as const;

const CHART_MARGIN = { top: 8, right: 8, bottom: 18, left: 8 } as const;
const TICK = { fontSize: 11 } as const;
const compact = (value: number) => formatNumber(value, { compact: true, maximumFractionDigits: 1 });
const moneyTip = (value: unknown) => formatMoney(Number(value));
const litresTip = (value: unknown) => formatLitres(Number(value));
/** A visible axis title (recharts `label`): the unit of the axis. */
const xTitle = (value: string) => ({ value, position: 'insideBottom' as const, offset: -12, fontSize: 11 });
const yTitle = (value: string) => ({
  value,
  angle: -90,
  position: 'insideLeft' as const,
  style: { textAnchor: 'middle' as const },
  fontSize: 11,
});

/**
 * A chart with its name (the figure's caption) and its figures in words. The drawing is for the eye: it is hidden
 * from assistive technology, so nothing in it may take the keyboard focus (axe rule aria-hidden-focus): recharts'
 * keyboard layer is off (`accessibilityLayer`) and a pie's own tab stop removed (`rootTabIndex`).
 */
function ChartCard({ id, title, total, children }: { id: string; title: string; total: string; children: ReactNode }) {
  return (
    <figure className="chart-card" aria-labelledby={`${id}-title`} aria-describedby={`${id}-total`}>
      <figcaption id={`${id}-title`} className="chart-title">
        {title}
      </figcaption>
      <div className="chart-box" aria-hidden="true">
        <ResponsiveContainer width="100%" height="100%">
          {children as ReactElement}
        </ResponsiveContainer>
      </div>
      {/* The figures in words, for screen readers and for a glance. */}
      <p id={`${id}-total`} className="chart-total">
        {total}
      </p>
    </figure>
  );
}

/**
 * The dashboard's live charts: sales by hour, coin against card, litres by water type and
 * machines online. The overview they draw is patched by live events, so they move without a reload.
 */
export default function FleetCharts({ overview }: { overview: FleetOverview }) {
  const { t } = useTranslation();
  const id = useId();
  const hourly = overview.hourly.map((h) => ({ ...h, label: String(h.hour).padStart(2, '0') }));
  const coin = overview.hourly.reduce((sum, h) => sum + h.coin, 0);
  const card = overview.hourly.reduce((sum, h) => sum + h.card, 0);
  const sales = overview.hourly.reduce((sum, h) => sum + h.sales, 0);
  const water = overview.byWaterType.map((w) => ({ ...w, label: formatWaterType(w.waterType) }));
  const online = overview.machines.filter((m) => m.online).length;
  const offline = overview.machines.length - online;
  const split = [
    { name: t('salesDashboard.chart.coin'), value: coin, color: COLORS.coin },
    { name: t('salesDashboard.chart.card'), value: card, color: COLORS.card },
  ];
  const status = [
    { name: t('salesDashboard.chart.online'), value: online, color: COLORS.online },
    { name: t('salesDashboard.chart.offline'), value: offline, color: COLORS.offline },
  ];
  const noSales = t('salesDashboard.chart.noSales');

  return (
    <div className="chart-grid">
      <ChartCard
        id={`${id}-hourly`}
        title={t('salesDashboard.chart.salesByHour')}
        total={t('salesDashboard.chart.salesTotal', { money: formatMoney(coin + card), count: sales })}
      >
        <BarChart data={hourly} margin={CHART_MARGIN} accessibilityLayer={false}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" interval={2} tick={TICK} label={xTitle(t('salesDashboard.chart.hourAxis'))} />
          <YAxis
            width={56}
            tick={TICK}
            tickFormatter={compact}
            label={yTitle(t('salesDashboard.chart.moneyAxis', { currency: env.currency }))}
          />
          <Tooltip formatter={moneyTip} labelFormatter={(label) => t('salesDashboard.chart.hour', { hour: label })} />
          <Legend verticalAlign="top" height={28} />
          <Bar
            dataKey="coin"
            name={t('salesDashboard.chart.coin')}
            stackId="sales"
            fill={COLORS.coin}
            isAnimationActive={false}
          />
          <Bar
            dataKey="card"
            name={t('salesDashboard.chart.card')}
            stackId="sales"
            fill={COLORS.card}
            isAnimationActive={false}
          />
        </BarChart>
      </ChartCard>

      <ChartCard
        id={`${id}-split`}
        title={t('salesDashboard.chart.coinAgainstCard')}
        total={t('salesDashboard.chart.split', { coin: formatMoney(coin), card: formatMoney(card) })}
      >
        <PieChart accessibilityLayer={false}>
          <Tooltip formatter={moneyTip} />
          <Legend />
          <Pie
            data={coin + card > 0 ? split : [{ name: noSales, value: 1, color: '#e3e9ef' }]}
            dataKey="value"
            nameKey="name"
            innerRadius="55%"
            outerRadius="85%"
            rootTabIndex={-1}
            isAnimationActive={false}
          >
            {(coin + card > 0 ? split : [{ color: '#e3e9ef' }]).map((slice, index) => (
              <Cell key={index} fill={slice.color} />
            ))}
          </Pie>
        </PieChart>
      </ChartCard>

      <ChartCard
        id={`${id}-water`}
        title={t('salesDashboard.chart.litresByType')}
        total={water.map((w) => `${w.label} ${formatLitres(w.volume)}`).join(' · ') || noSales}
      >
        <BarChart data={water} margin={CHART_MARGIN} accessibilityLayer={false}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" tick={{ fontSize: 12 }} label={xTitle(t('salesDashboard.chart.waterTypeAxis'))} />
          <YAxis width={56} tick={TICK} tickFormatter={compact} label={yTitle(t('salesDashboard.chart.litresAxis'))} />
          <Tooltip formatter={litresTip} />
          <Bar dataKey="volume" name={t('salesDashboard.chart.litres')} isAnimationActive={false}>
            {water.map((w) => (
              <Cell key={w.waterType} fill={COLORS[w.waterType]} />
            ))}
          </Bar>
        </BarChart>
      </ChartCard>

      <ChartCard
        id={`${id}-online`}
        title={t('salesDashboard.chart.machinesOnline')}
        total={t('salesDashboard.status.online', { online, total: overview.machines.length })}
      >
        <PieChart accessibilityLayer={false}>
          <Tooltip />
          <Legend />
          <Pie
            data={status}
            dataKey="value"
            nameKey="name"
            innerRadius="55%"
            outerRadius="85%"
            rootTabIndex={-1}
            isAnimationActive={false}
          >
            {status.map((slice) => (
              <Cell key={slice.name} fill={slice.color} />
            ))}
          </Pie>
        </PieChart>
      </ChartCard>
    </div>
  );
}
