import { Link } from 'react-router';
import { Loading } from '@/components/ui/loading';
import { StatusMessage } from '@/components/ui/status-message';
import { useCardSummary } from '../api/get-card-summary';
import { fetchFailure } from './fetch-failure';

/**
 * Card Information Summary: a tile per machine with 'Machine ID' and 'Total Cards';
 * a tile opens that machine's Registered Cards panel.
 */
export function CardSummaryTiles({ cardsHref }: { cardsHref: (machineId: string) => string }) {
  const summary = useCardSummary();
  if (summary.isPending) return <Loading />;
  if (summary.isError) return <StatusMessage tone="error">{fetchFailure(summary.error, 'card summary')}</StatusMessage>;

  const machines = Object.entries(summary.data).sort(([a], [b]) => a.localeCompare(b));
  if (!machines.length) return <p className="empty">No machines found for this user.</p>;
  return (
    <ul className="tile-grid" aria-label="Machines">
      {machines.map(([machineId, total]) => (
        <li key={machineId}>
          <Link className="summary-tile" to={cardsHref(machineId)}>
            <span className="tile-label">Machine ID</span>
            <span className="tile-value tile-id">{machineId}</span>
            <span className="tile-label">Total Cards</span>
            <span className="tile-value">{total}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
