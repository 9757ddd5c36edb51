import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import {
  salesViewRoutes,
  type CardTransaction,
  type CoinTransaction,
  type CARD_TRANSACTION_FIELDS,
  type COIN_TRANSACTION_FIELDS,
} from '@wv/contracts';
import { callApi } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export type TransactionKind = 'card' | 'coin';

export type TransactionField<K extends TransactionKind> = K extends 'card'
  ? (typeof CARD_TRANSACTION_FIELDS)[number]
  : (typeof COIN_TRANSACTION_FIELDS)[number];

export type TransactionRow<K extends TransactionKind> = K extends 'card' ? CardTransaction : CoinTransaction;

/** What the table asks for: its date and search filters plus the server-side sort (docs/rest-api.md, "Endpoints"). */
export interface TransactionFilters<K extends TransactionKind = TransactionKind> {
  startDate?: string;
  endDate?: string;
  sort?: TransactionField<K>;
  order?: 'asc' | 'desc';
}

export interface TransactionsQuery<K extends TransactionKind = TransactionKind> extends TransactionFilters<K> {
  page: number;
  limit: number;
}

export interface TransactionsPage<K extends TransactionKind> {
  data: TransactionRow<K>[];
  total: number;
  /** The page and page size these rows were asked for: they keep their own numbers while the next page loads. */
  page: number;
  limit: number;
}

export async function getTransactions<K extends TransactionKind>(
  kind: K,
  machineId: string,
  query: TransactionsQuery<K>,
): Promise<TransactionsPage<K>> {
  const params = { machineId };
  const page =
    kind === 'card'
      ? await callApi(salesViewRoutes.cardTransactions, { params, query })
      : await callApi(salesViewRoutes.coinTransactions, { params, query });
  // The route answers with the rows of `kind`.
  return { ...(page as Omit<TransactionsPage<K>, 'page' | 'limit'>), page: query.page, limit: query.limit };
}

export const getTransactionsQueryOptions = <K extends TransactionKind>(
  kind: K,
  machineId: string,
  query: TransactionsQuery<K>,
) =>
  queryOptions({
    queryKey: queryKeys.transactions(kind, machineId, query),
    queryFn: () => getTransactions(kind, machineId, query),
    // The previous page stays on screen while the next one loads.
    placeholderData: keepPreviousData,
  });

/**
 * GET /machines/{machineId}/card-transactions or coin-transactions (docs/rest-api.md, "Endpoints"). `refreshEvery`
 * re-asks on a timer (docs/web-app.md, "Behaviour": every 60 seconds while no date range is chosen).
 */
export const useTransactions = <K extends TransactionKind>(
  kind: K,
  machineId: string,
  query: TransactionsQuery<K>,
  refreshEvery: number | false,
) => useQuery({ ...getTransactionsQueryOptions(kind, machineId, query), refetchInterval: refreshEvery });
