import { useState, type FormEvent } from 'react';
import { EXPORT_FILE_NAME, EXPORT_SHEET_NAME, ROWS_PER_PAGE } from '@wv/contracts';
import { errorDetail } from '@/lib/api-client';
import { useToday } from '@/lib/dates';
import { useTranslation } from '@/lib/i18n';
import { saveFile } from '@/lib/save-file';
import { buildXlsx } from '@/lib/xlsx';
import { Button } from '@/components/ui/button';
import { Loading } from '@/components/ui/loading';
import { Pagination } from '@/components/ui/pagination';
import { StatusMessage } from '@/components/ui/status-message';
import { exportTransactions } from '../api/export-transactions';
import {
  useTransactions,
  type TransactionField,
  type TransactionFilters,
  type TransactionKind,
} from '../api/get-transactions';
import { columnsFor, EXPORT_HEADER } from './transaction-columns';
import { ExportMenu } from './export-menu';
import { TransactionsTable, type SortState } from './transactions-table';

/** With no date range chosen, the list refreshes every 60 seconds. */
const AUTO_REFRESH_MS = 60_000;

interface Range {
  startDate: string;
  endDate: string;
}

/**
 * Card-Based or Coin-Based Transactions of one machine (docs/web-app.md, "Screens" and "Behaviour"): start and end
 * dates with Filter (back to page 1), rows per page (a change goes back to page 1), headers sorting on
 * the server, Previous / Next with 'Page X of Y', and 'Export Data'. With no dates chosen, today's date
 * is filled in and the list refreshes every 60 seconds.
 */
export function TransactionsView<K extends TransactionKind>({ kind, machineId }: { kind: K; machineId: string }) {
  const { t } = useTranslation();
  const today = useToday();
  // The applied range; null means none was chosen, so today's date is used (and follows midnight).
  const [chosen, setChosen] = useState<Range | null>(null);
  // What the inputs show while being edited; null mirrors the applied range.
  const [draft, setDraft] = useState<Range | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const [limit, setLimit] = useState<number>(ROWS_PER_PAGE[0]);
  const [sort, setSort] = useState<SortState<K> | null>(null);

  const applied = chosen ?? { startDate: today, endDate: today };
  const inputs = draft ?? applied;
  const filters: TransactionFilters<K> = {
    startDate: applied.startDate || undefined,
    endDate: applied.endDate || undefined,
    ...(sort ? { sort: sort.field, order: sort.order } : {}),
  };
  const result = useTransactions(kind, machineId, { ...filters, page, limit }, chosen ? false : AUTO_REFRESH_MS);
  const columns = columnsFor(kind);

  const filter = (event: FormEvent) => {
    event.preventDefault();
    if (inputs.startDate && inputs.endDate && inputs.startDate > inputs.endDate) {
      setProblem(t('transactions.badRange'));
      return;
    }
    setProblem(null);
    // Both dates cleared: back to today's date and the automatic refresh.
    setChosen(draft ? (draft.startDate || draft.endDate ? draft : null) : chosen);
    setDraft(null);
    setPage(1);
  };

  const sortBy = (field: TransactionField<K>) => {
    setSort((current) =>
      current?.field === field ? { field, order: current.order === 'asc' ? 'desc' : 'asc' } : { field, order: 'asc' },
    );
    setPage(1);
  };

  const rows = result.data?.data ?? [];
  // Numbered by the page they belong to: while the next page loads, the previous one stays on screen as it was.
  const shown = result.data ?? { page, limit };
  const firstSn = (shown.page - 1) * shown.limit + 1;

  // 'Current Page': the rows on screen, written in the browser (the server's export has no paging).
  const exportPage = () => {
    const cells = rows.map((row, index) => columns.map((column) => column.cell(row, firstSn + index)));
    saveFile(buildXlsx(EXPORT_SHEET_NAME, EXPORT_HEADER[kind], cells), EXPORT_FILE_NAME);
  };
  const { sort: sortField, order, startDate, endDate } = filters;
  const exportAll = () => exportTransactions(kind, machineId, { startDate, endDate, sort: sortField, order });

  return (
    <div className="stack">
      <form className="toolbar filter-bar" onSubmit={filter} aria-label={t('transactions.filter')}>
        <div className="field field-inline">
          <label htmlFor={`${kind}-start`}>{t('transactions.startDate')}</label>
          <input
            id={`${kind}-start`}
            type="date"
            value={inputs.startDate}
            onChange={(event) => setDraft({ ...inputs, startDate: event.target.value })}
          />
        </div>
        <div className="field field-inline">
          <label htmlFor={`${kind}-end`}>{t('transactions.endDate')}</label>
          <input
            id={`${kind}-end`}
            type="date"
            value={inputs.endDate}
            onChange={(event) => setDraft({ ...inputs, endDate: event.target.value })}
          />
        </div>
        <Button type="submit">{t('transactions.filterButton')}</Button>
        <div className="toolbar-end">
          <ExportMenu onCurrentPage={exportPage} onEntireDataset={exportAll} disabled={!result.data} />
        </div>
      </form>
      {problem && <StatusMessage tone="error">{problem}</StatusMessage>}
      {!chosen && <p className="muted small">{t('transactions.today')}</p>}

      {result.isError && (
        <StatusMessage tone="error" detail={errorDetail(result.error)}>
          {kind === 'card' ? t('transactions.failedCard') : t('transactions.failedCoin')}
        </StatusMessage>
      )}
      {result.isPending ? (
        <Loading />
      ) : (
        result.data && (
          <>
            {rows.length ? (
              <TransactionsTable
                caption={kind === 'card' ? t('transactions.captionCard') : t('transactions.captionCoin')}
                columns={columns}
                rows={rows}
                firstSn={firstSn}
                sort={sort}
                onSort={sortBy}
                busy={result.isPlaceholderData}
              />
            ) : (
              <p className="empty">{t('transactions.empty')}</p>
            )}
            <Pagination
              label={t('transactions.pages')}
              page={page}
              limit={limit}
              total={result.data.total}
              onPage={setPage}
              limitOptions={ROWS_PER_PAGE}
              onLimit={(value) => {
                setLimit(value);
                setPage(1);
              }}
            />
          </>
        )
      )}
    </div>
  );
}
