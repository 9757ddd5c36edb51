import type { RecentSale } from '@wv/contracts';
import { errorDetail } from '@/lib/api-client';
import { formatDateTime } from '@/lib/dates';
import { formatLitres, formatMoney, formatWaterType } from '@/lib/format';
import { Loading } from '@/components/ui/loading';
import { StatusMessage } from '@/components/ui/status-message';
import { useRecentSales } from '../api/get-recent-sales';
import { useLiveActivity, type StatusChange } from '../hooks/use-live-activity';

type Item = { at: string; key: string } & (
  { type: 'sale'; sale: RecentSale } | { type: 'status'; change: StatusChange }
);

/** Machine activity: sales and online/offline changes of the caller's machines, newest first. */
export function ActivityFeed() {
  const sales = useRecentSales();
  const changes = useLiveActivity();

  if (sales.isPending) return <Loading />;
  if (sales.isError)
    return <StatusMessage tone="error">Error loading activity: {errorDetail(sales.error)}</StatusMessage>;

  const items: Item[] = [
    ...sales.data.map((sale) => ({ type: 'sale' as const, sale, at: sale.time, key: `sale-${sale.id}` })),
    ...changes.map((change) => ({ type: 'status' as const, change, at: change.lastSeen, key: `status-${change.id}` })),
  ].sort((a, b) => Date.parse(b.at) - Date.parse(a.at));

  if (!items.length) return <p className="empty">No activity yet. New sales appear here as they happen.</p>;

  return (
    <ol className="feed" aria-label="Activity">
      {items.map((item) =>
        item.type === 'sale' ? (
          <li key={item.key} className="feed-item feed-sale">
            <span className={`feed-kind feed-kind-${item.sale.kind}`}>
              {item.sale.kind === 'coin' ? 'Coin' : 'Card'}
            </span>
            <span className="feed-text">
              <strong>{item.sale.machineId}</strong> sold {formatLitres(item.sale.volume)} of{' '}
              {formatWaterType(item.sale.waterType).toLowerCase()} water for {formatMoney(item.sale.price)}
              {item.sale.cardId && <span className="muted"> · card {item.sale.cardId}</span>}
            </span>
            <time className="feed-time muted" dateTime={item.sale.time}>
              {formatDateTime(item.sale.time)}
            </time>
          </li>
        ) : (
          <li key={item.key} className="feed-item feed-status">
            <span className={item.change.online ? 'status-pill status-online' : 'status-pill status-offline'}>
              {item.change.online ? 'Online' : 'Offline'}
            </span>
            <span className="feed-text">
              <strong>{item.change.machineId}</strong> went {item.change.online ? 'online' : 'offline'}
            </span>
            <time className="feed-time muted" dateTime={item.change.lastSeen}>
              {formatDateTime(item.change.lastSeen)}
            </time>
          </li>
        ),
      )}
    </ol>
  );
}
