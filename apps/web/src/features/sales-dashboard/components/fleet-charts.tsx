import type { ReactElement, ReactNode } from 'react';
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
import { formatLitres, formatMoney, formatWaterType } from '@/lib/format';

const COLORS = {
  coin: '#14a3c7',
  card: '#0b5c8a',
  online: '#15803d',
  offline: '#9aa5b1',
  pure: '#0b5c8a',
  fresh: '#22a06b',
  cold: '#5aa9e6',
} as const;

const compact = new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 });
const moneyTip = (value: unknown) => formatMoney(Number(value));
const litresTip = (value: unknown) => formatLitres(Number(value));

function ChartCard({ title, total, children }: { title: string; total: string; children: ReactNode }) {
  return (
    <figure className="chart-card" aria-label={title}>
      <figcaption className="chart-title">{title}</figcaption>
      <div className="chart-box" aria-hidden="true">
        <ResponsiveContainer width="100%" height="100%">
          {children as ReactElement}
        </ResponsiveContainer>
      </div>
      {/* The figures in words, for screen readers and for a glance. */}
      <p className="chart-total">{total}</p>
    </figure>
  );
}

/**
 * The dashboard's live charts: sales by hour, coin against card, litres by water type and
 * machines online. The overview they draw is patched by live events, so they move without a reload.
 */
export default function FleetCharts({ overview }: { overview: FleetOverview }) {
  const hourly = overview.hourly.map((h) => ({ ...h, label: String(h.hour).padStart(2, '0') }));
  const coin = overview.hourly.reduce((sum, h) => sum + h.coin, 0);
  const card = overview.hourly.reduce((sum, h) => sum + h.card, 0);
  const sales = overview.hourly.reduce((sum, h) => sum + h.sales, 0);
  const water = overview.byWaterType.map((w) => ({ ...w, label: formatWaterType(w.waterType) }));
  const online = overview.machines.filter((m) => m.online).length;
  const offline = overview.machines.length - online;
  const split = [
    { name: 'Coin', value: coin, color: COLORS.coin },
    { name: 'Card', value: card, color: COLORS.card },
  ];
  const status = [
    { name: 'Online', value: online, color: COLORS.online },
    { name: 'Offline', value: offline, color: COLORS.offline },
  ];

  return (
    <div className="chart-grid">
      <ChartCard
        title="Sales by hour"
        total={`${formatMoney(coin + card)} in ${sales} ${sales === 1 ? 'sale' : 'sales'}`}
      >
        <BarChart data={hourly} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" interval={2} tick={{ fontSize: 11 }} />
          <YAxis width={44} tick={{ fontSize: 11 }} tickFormatter={(v: number) => compact.format(v)} />
          <Tooltip formatter={moneyTip} labelFormatter={(label) => `${label}:00`} />
          <Legend />
          <Bar dataKey="coin" name="Coin" stackId="sales" fill={COLORS.coin} isAnimationActive={false} />
          <Bar dataKey="card" name="Card" stackId="sales" fill={COLORS.card} isAnimationActive={false} />
        </BarChart>
      </ChartCard>

      <ChartCard title="Coin against card" total={`Coin ${formatMoney(coin)} · Card ${formatMoney(card)}`}>
        <PieChart>
          <Tooltip formatter={moneyTip} />
          <Legend />
          <Pie
            data={coin + card > 0 ? split : [{ name: 'No sales', value: 1, color: '#e3e9ef' }]}
            dataKey="value"
            nameKey="name"
            innerRadius="55%"
            outerRadius="85%"
            isAnimationActive={false}
          >
            {(coin + card > 0 ? split : [{ color: '#e3e9ef' }]).map((slice, index) => (
              <Cell key={index} fill={slice.color} />
            ))}
          </Pie>
        </PieChart>
      </ChartCard>

      <ChartCard
        title="Litres by water type"
        total={water.map((w) => `${w.label} ${formatLitres(w.volume)}`).join(' · ') || 'No sales'}
      >
        <BarChart data={water} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" tick={{ fontSize: 12 }} />
          <YAxis width={44} tick={{ fontSize: 11 }} tickFormatter={(v: number) => compact.format(v)} />
          <Tooltip formatter={litresTip} />
          <Bar dataKey="volume" name="Litres" isAnimationActive={false}>
            {water.map((w) => (
              <Cell key={w.waterType} fill={COLORS[w.waterType]} />
            ))}
          </Bar>
        </BarChart>
      </ChartCard>

      <ChartCard title="Machines online" total={`${online} of ${overview.machines.length} online`}>
        <PieChart>
          <Tooltip />
          <Legend />
          <Pie
            data={status}
            dataKey="value"
            nameKey="name"
            innerRadius="55%"
            outerRadius="85%"
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
