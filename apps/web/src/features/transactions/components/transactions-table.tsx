import { useTranslation } from '@/lib/i18n';
import type { TransactionField, TransactionKind, TransactionRow } from '../api/get-transactions';
import { columnTitle, type Column } from './transaction-columns';
import './transactions-table.css';

export interface SortState<K extends TransactionKind> {
  field: TransactionField<K>;
  order: 'asc' | 'desc';
}

interface TransactionsTableProps<K extends TransactionKind> {
  caption: string;
  columns: Column<K>[];
  rows: TransactionRow<K>[];
  /** SN of the first row (rows before this page plus one). */
  firstSn: number;
  sort: SortState<K> | null;
  onSort: (field: TransactionField<K>) => void;
  /** The rows are the previous page's while the next one loads. */
  busy?: boolean;
}

const ARIA_SORT = { asc: 'ascending', desc: 'descending' } as const;

/**
 * The transactions as a table: each sortable header is a button; the first click sorts ascending, the next
 * descending. Every column fits a 1366-pixel screen; on a phone each row becomes a card of label: value pairs
 * (docs/web-app.md, "Behaviour"), so no column is cut off.
 */
export function TransactionsTable<K extends TransactionKind>({
  caption,
  columns,
  rows,
  firstSn,
  sort,
  onSort,
  busy = false,
}: TransactionsTableProps<K>) {
  const { t } = useTranslation();
  return (
    <div className={busy ? 'table-wrap table-busy' : 'table-wrap'} aria-busy={busy || undefined}>
      <table className="table table-stack table-transactions">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => {
              const active = column.field && sort?.field === column.field ? sort.order : null;
              const classes = [`col-${column.key}`, column.numeric ? 'num' : null].filter(Boolean).join(' ');
              return (
                <th key={column.key} scope="col" className={classes} aria-sort={active ? ARIA_SORT[active] : undefined}>
                  {column.field ? (
                    <button type="button" className="sort-button" onClick={() => onSort(column.field!)}>
                      {columnTitle(t, column.key)}
                      <span className={`sort-mark sort-${active ?? 'none'}`} aria-hidden="true" />
                    </button>
                  ) : (
                    columnTitle(t, column.key)
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <tr key={row.id}>
              {columns.map((column) => (
                <td
                  key={column.key}
                  data-label={columnTitle(t, column.key)}
                  className={[`col-${column.key}`, column.numeric ? 'num' : null].filter(Boolean).join(' ')}
                >
                  <span className="cell-value">{column.render(row, firstSn + index)}</span>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
