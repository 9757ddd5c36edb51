import { Link } from 'react-router';
import { useTranslation } from '@/lib/i18n';
import { formatNumber } from '@/lib/format';
import { Loading } from '@/components/ui/loading';
import { StatusMessage } from '@/components/ui/status-message';
import { useCardSummary } from '../api/get-card-summary';
import { fetchFailure } from './fetch-failure';

/**
 * Card Information Summary: a tile per machine with 'Machine ID' and 'Total Cards';
 * a tile opens that machine's Registered Cards panel.
 */
export function CardSummaryTiles({ cardsHref }: { cardsHref: (machineId: string) => string }) {
  const { t } = useTranslation();
  const summary = useCardSummary();
  if (summary.isPending) return <Loading />;
  if (summary.isError)
    return <StatusMessage tone="error">{fetchFailure(summary.error, 'card summary', t)}</StatusMessage>;

  const machines = Object.entries(summary.data).sort(([a], [b]) => a.localeCompare(b));
  if (!machines.length) return <p className="empty">{t('cardScreens.summary.empty')}</p>;
  return (
    <ul className="tile-grid" aria-label={t('cardScreens.summary.list')}>
      {machines.map(([machineId, total]) => (
        <li key={machineId}>
          <Link className="summary-tile" to={cardsHref(machineId)}>
            <span className="tile-label">{t('cardScreens.summary.machineId')}</span>
            <span className="tile-value tile-id">{machineId}</span>
            <span className="tile-label">{t('cardScreens.summary.totalCards')}</span>
            <span className="tile-value">{formatNumber(total)}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
