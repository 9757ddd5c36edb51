import type { TransactionField, TransactionKind, TransactionRow } from '../api/get-transactions';
import type { Column } from './transaction-columns';

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
 * The transactions as a table: each sortable header is a button; the first click
 * sorts ascending, the next descending. On a phone the table scrolls sideways inside its frame.
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
  return (
    <div className={busy ? 'table-wrap table-busy' : 'table-wrap'} aria-busy={busy || undefined}>
      <table className="table table-transactions">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => {
              const active = column.field && sort?.field === column.field ? sort.order : null;
              return (
                <th
                  key={column.title}
                  scope="col"
                  className={column.numeric ? 'num' : undefined}
                  aria-sort={active ? ARIA_SORT[active] : undefined}
                >
                  {column.field ? (
                    <button type="button" className="sort-button" onClick={() => onSort(column.field!)}>
                      {column.title}
                      <span className={`sort-mark sort-${active ?? 'none'}`} aria-hidden="true" />
                    </button>
                  ) : (
                    column.title
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
                <td key={column.title} className={column.numeric ? 'num' : undefined}>
                  {column.render(row, firstSn + index)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
