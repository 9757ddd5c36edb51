import { Link } from 'react-router';
import type { DailySummaryRow, FleetOverview, MonthlySummaryRow } from '@wv/contracts';
import { formatLitres, formatMoney } from '@/lib/format';
import { useTranslation } from '@/lib/i18n';

type Machine = FleetOverview['machines'][number];
type Figures = { price: number; volume: number };

export interface MachineLinks {
  coin: (machineId: string) => string;
  card: (machineId: string) => string;
  /** Where the machine's name leads (its settings). */
  machine: (machineId: string) => string;
}

interface MachineSummaryCardProps {
  machineId: string;
  daily: DailySummaryRow | undefined;
  monthly: MonthlySummaryRow | undefined;
  /** Location, status and attendant, when the overview has the machine. */
  info: Machine | undefined;
  links: MachineLinks;
}

interface Line {
  label: string;
  price: number;
  volume: number;
}

function SummaryLink({ to, title, lines }: { to: string; title: string; lines: Line[] }) {
  return (
    <Link className="summary-link" to={to}>
      <span className="summary-title">{title}</span>
      <dl className="summary-figures">
        {lines.map((line) => (
          <div key={line.label} className="summary-figure">
            <dt>{line.label}</dt>
            <dd>
              <span className="summary-money">{formatMoney(line.price)}</span>
              <span className="muted">{formatLitres(line.volume)}</span>
            </dd>
          </div>
        ))}
      </dl>
    </Link>
  );
}

/**
 * One machine on the dashboard (docs/web-app.md, "Screens"). The daily block shows only when the
 * coin or card daily price is above 0; missing numbers are 0. The coin summary opens the coin
 * transactions, the card summary the card transactions.
 */
export function MachineSummaryCard({ machineId, daily, monthly, info, links }: MachineSummaryCardProps) {
  const { t } = useTranslation();
  const coinDay = { price: daily?.coinBased.dailyPriceCollected ?? 0, volume: daily?.coinBased.volumeSold ?? 0 };
  const cardDay = { price: daily?.cardBased.dailyPriceCollected ?? 0, volume: daily?.cardBased.volumeSold ?? 0 };
  const coinMonth = {
    price: monthly?.coinBased.monthlyPriceCollected ?? 0,
    volume: monthly?.coinBased.volumeSold ?? 0,
  };
  const cardMonth = {
    price: monthly?.cardBased.monthlyPriceCollected ?? 0,
    volume: monthly?.cardBased.volumeSold ?? 0,
  };
  const showDaily = coinDay.price > 0 || cardDay.price > 0;
  const lines = (day: Figures, month: Figures): Line[] => [
    ...(showDaily ? [{ label: t('salesDashboard.card.daily'), ...day }] : []),
    { label: t('salesDashboard.card.monthly'), ...month },
  ];
  const titleId = `machine-${machineId}`;

  return (
    <article className="machine-card" aria-labelledby={titleId}>
      <header className="machine-card-header">
        <h3 id={titleId} className="machine-card-title">
          <Link to={links.machine(machineId)}>{machineId}</Link>
        </h3>
        {info && (
          <span className={info.online ? 'status-pill status-online' : 'status-pill status-offline'}>
            {info.online ? t('salesDashboard.card.online') : t('salesDashboard.card.offline')}
          </span>
        )}
      </header>
      {info?.location && <p className="machine-card-location muted">{info.location}</p>}
      {!showDaily && <p className="machine-card-note muted">{t('salesDashboard.card.noSales')}</p>}
      <div className="summary-pair">
        <SummaryLink
          to={links.coin(machineId)}
          title={t('salesDashboard.card.coinSales')}
          lines={lines(coinDay, coinMonth)}
        />
        <SummaryLink
          to={links.card(machineId)}
          title={t('salesDashboard.card.cardSales')}
          lines={lines(cardDay, cardMonth)}
        />
      </div>
    </article>
  );
}
