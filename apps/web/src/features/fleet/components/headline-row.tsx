import type { FleetFigures } from '@wv/contracts';
import { Loading } from '@/components/ui/loading';
import { StatusMessage } from '@/components/ui/status-message';
import { formatLitres, formatMoney } from '@/lib/format';
import { useTranslation } from '@/lib/i18n';
import { useFleetHeadline } from '../api/get-fleet-headline';

type Figure = keyof FleetFigures;

const FORMAT: Record<Figure, (n: number) => string> = {
  revenue: formatMoney,
  litres: formatLitres,
  sales: (n) => n.toLocaleString(),
};

/** The change against a base period, in whole percent; none when the base is zero. */
function change(now: number, base: number): number | null {
  return base === 0 ? null : Math.round(((now - base) / base) * 100);
}

function Comparison({
  label,
  now,
  base,
  format,
}: {
  label: string;
  now: number;
  base: number;
  format: (n: number) => string;
}) {
  const { t } = useTranslation();
  const pct = change(now, base);
  const tone = pct === null || pct === 0 ? 'flat' : pct > 0 ? 'up' : 'down';
  return (
    <li className={`fleet-change fleet-change-${tone}`}>
      <span>{label}</span> <strong>{pct === null ? t('fleet.headline.noBase') : `${pct > 0 ? '+' : ''}${pct}%`}</strong>{' '}
      <span className="muted">({format(base)})</span>
    </li>
  );
}

/** Today so far against the same time yesterday and on the same weekday last week (docs/web-app.md, "Fleet dashboard"). */
export function HeadlineRow() {
  const { t } = useTranslation();
  const headline = useFleetHeadline();
  if (headline.isError) return <StatusMessage tone="error">{t('fleet.headline.error')}</StatusMessage>;
  if (!headline.data) return <Loading />;
  const h = headline.data;
  return (
    <section aria-label={t('fleet.headline.title')} className="fleet-headline">
      <p className="muted fleet-headline-asof">{t('fleet.headline.asOf', { time: h.asOf })}</p>
      <div className="fleet-headline-grid">
        {(['revenue', 'litres', 'sales'] as const).map((figure) => (
          <article key={figure} className="card fleet-figure" aria-label={t(`fleet.figure.${figure}`)}>
            <h3>{t(`fleet.figure.${figure}`)}</h3>
            <p className="fleet-figure-value">{FORMAT[figure](h.today[figure])}</p>
            <ul>
              <Comparison
                label={t('fleet.headline.vsYesterday')}
                now={h.today[figure]}
                base={h.yesterday[figure]}
                format={FORMAT[figure]}
              />
              <Comparison
                label={t('fleet.headline.vsLastWeek')}
                now={h.today[figure]}
                base={h.lastWeek[figure]}
                format={FORMAT[figure]}
              />
            </ul>
          </article>
        ))}
      </div>
    </section>
  );
}
