import type { CardHistoryRow } from '@wv/contracts';
import { useTranslation } from '@/lib/i18n';
import { formatDateTime } from '@/lib/dates';
import { formatMoney } from '@/lib/format';
import { Loading } from '@/components/ui/loading';
import { StatusMessage } from '@/components/ui/status-message';
import { useCardHistory } from '../api/get-card-history';
import { fetchFailure } from './fetch-failure';
import './card-history.css';

function HistoryTable({ rows }: { rows: CardHistoryRow[] }) {
  const { t } = useTranslation();
  const label = {
    id: t('cardScreens.history.transactionId'),
    amount: t('cardScreens.history.amount'),
    date: t('cardScreens.history.date'),
    cardType: t('cardScreens.history.cardType'),
  };
  return (
    <div className="table-wrap">
      <table className="table table-stack history-table">
        <caption className="visually-hidden">{t('cardScreens.history.title')}</caption>
        <thead>
          <tr>
            <th scope="col">{label.id}</th>
            <th scope="col" className="num">
              {label.amount}
            </th>
            <th scope="col">{label.date}</th>
            <th scope="col">{label.cardType}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              <td data-label={label.id} className="cell-id">
                {row.transaction_id}
              </td>
              <td data-label={label.amount} className="num">
                {/* One block beside the label on a phone (docs/web-app.md, "My Cards"): amount, kind and flag. */}
                <span className="history-amount">
                  <span className={row.amount < 0 ? 'amount-out' : 'amount-in'}>{formatMoney(row.amount)}</span>
                  <span className="muted small"> {t(`cardScreens.history.kind.${row.kind}`)}</span>
                  {row.flag && (
                    <span className={`flag flag-${row.flag}`}>{t(`cardScreens.history.flag.${row.flag}`)}</span>
                  )}
                </span>
              </td>
              <td data-label={label.date}>{formatDateTime(row.created_at)}</td>
              <td data-label={label.cardType}>{row.card_type}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A card's 'Transaction History': Transaction ID, Amount, Date, Card Type. */
export function CardHistory({ cardId }: { cardId: string }) {
  const { t } = useTranslation();
  const history = useCardHistory(cardId);
  return (
    <section className="stack-sm" aria-labelledby="history-title">
      <h3 id="history-title" className="panel-subtitle">
        {t('cardScreens.history.title')}
      </h3>
      {history.isPending ? (
        <Loading />
      ) : history.isError ? (
        <StatusMessage tone="error">{fetchFailure(history.error, 'transactions', t)}</StatusMessage>
      ) : history.data.length === 0 ? (
        <p className="empty">{t('cardScreens.history.empty')}</p>
      ) : (
        <HistoryTable rows={history.data} />
      )}
    </section>
  );
}
