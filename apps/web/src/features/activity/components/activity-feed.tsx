import type { RecentSale } from '@wv/contracts';
import { errorDetail } from '@/lib/api-client';
import { formatDateTime } from '@/lib/dates';
import { formatLitres, formatMoney, formatWaterType } from '@/lib/format';
import { useTranslation } from '@/lib/i18n';
import { Loading } from '@/components/ui/loading';
import { StatusMessage } from '@/components/ui/status-message';
import { useRecentSales } from '../api/get-recent-sales';
import { useLiveActivity, type StatusChange } from '../hooks/use-live-activity';

type Item = { at: string; key: string } & (
  { type: 'sale'; sale: RecentSale } | { type: 'status'; change: StatusChange }
);

/** Machine activity: sales and online/offline changes of the caller's machines, newest first. */
export function ActivityFeed() {
  const { t } = useTranslation();
  const sales = useRecentSales();
  const changes = useLiveActivity();

  if (sales.isPending) return <Loading />;
  if (sales.isError)
    return <StatusMessage tone="error">{t('activity.loadError', { detail: errorDetail(sales.error) })}</StatusMessage>;

  const items: Item[] = [
    ...sales.data.map((sale) => ({ type: 'sale' as const, sale, at: sale.time, key: `sale-${sale.id}` })),
    ...changes.map((change) => ({ type: 'status' as const, change, at: change.lastSeen, key: `status-${change.id}` })),
  ].sort((a, b) => Date.parse(b.at) - Date.parse(a.at));

  if (!items.length) return <p className="empty">{t('activity.empty')}</p>;

  return (
    <ol className="feed" aria-label={t('activity.feed')}>
      {items.map((item) =>
        item.type === 'sale' ? (
          <li key={item.key} className="feed-item feed-sale">
            <span className={`feed-kind feed-kind-${item.sale.kind}`}>
              {item.sale.kind === 'coin' ? t('activity.coin') : t('activity.card')}
            </span>
            <span className="feed-text">
              <strong>{item.sale.machineId}</strong>{' '}
              {t('activity.sold', {
                volume: formatLitres(item.sale.volume),
                water: formatWaterType(item.sale.waterType).toLowerCase(),
                price: formatMoney(item.sale.price),
              })}
              {item.sale.cardId && (
                <span className="muted"> · {t('activity.byCard', { cardId: item.sale.cardId })}</span>
              )}
            </span>
            <time className="feed-time muted" dateTime={item.sale.time}>
              {formatDateTime(item.sale.time)}
            </time>
          </li>
        ) : (
          <li key={item.key} className="feed-item feed-status">
            <span className={item.change.online ? 'status-pill status-online' : 'status-pill status-offline'}>
              {item.change.online ? t('activity.online') : t('activity.offline')}
            </span>
            <span className="feed-text">
              <strong>{item.change.machineId}</strong>{' '}
              {item.change.online ? t('activity.wentOnline') : t('activity.wentOffline')}
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
