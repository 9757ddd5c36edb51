import type { CardHistoryRow } from '@wv/contracts';
import { formatDateTime } from '@/lib/dates';
import { formatMoney } from '@/lib/format';
import { Loading } from '@/components/ui/loading';
import { StatusMessage } from '@/components/ui/status-message';
import { useCardHistory } from '../api/get-card-history';
import { fetchFailure } from './fetch-failure';

const KIND_TEXT = {
  load: 'Load',
  'top-up': 'Top-up',
  sale: 'Sale',
  refund: 'Refund (short dispense)',
  'transfer-out': 'Moved to replacement card',
  'transfer-in': 'Moved from replaced card',
  'mobile-top-up': 'M-Pesa top-up',
} as const;
const FLAG_TEXT = {
  unknown_card: 'Unknown card',
  overdrawn: 'Overdrawn',
  foreign_card: 'Used elsewhere, not charged',
  blocked_card: 'Used while blocked',
  over_limit: 'Over daily limit',
} as const;

function HistoryTable({ rows }: { rows: CardHistoryRow[] }) {
  return (
    <div className="table-wrap">
      <table className="table table-stack">
        <caption className="visually-hidden">Transaction History</caption>
        <thead>
          <tr>
            <th scope="col">Transaction ID</th>
            <th scope="col" className="num">
              Amount
            </th>
            <th scope="col">Date</th>
            <th scope="col">Card Type</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              <td data-label="Transaction ID" className="cell-id">
                {row.transaction_id}
              </td>
              <td data-label="Amount" className="num">
                <span className={row.amount < 0 ? 'amount-out' : 'amount-in'}>{formatMoney(row.amount)}</span>
                <span className="muted small"> {KIND_TEXT[row.kind]}</span>
                {row.flag && <span className={`flag flag-${row.flag}`}>{FLAG_TEXT[row.flag]}</span>}
              </td>
              <td data-label="Date">{formatDateTime(row.created_at)}</td>
              <td data-label="Card Type">{row.card_type}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A card's 'Transaction History': Transaction ID, Amount, Date, Card Type. */
export function CardHistory({ cardId }: { cardId: string }) {
  const history = useCardHistory(cardId);
  return (
    <section className="stack-sm" aria-labelledby="history-title">
      <h3 id="history-title" className="panel-subtitle">
        Transaction History
      </h3>
      {history.isPending ? (
        <Loading />
      ) : history.isError ? (
        <StatusMessage tone="error">{fetchFailure(history.error, 'transactions')}</StatusMessage>
      ) : history.data.length === 0 ? (
        <p className="empty">No transactions found for this card.</p>
      ) : (
        <HistoryTable rows={history.data} />
      )}
    </section>
  );
}
