import { EXPORT_FILE_NAME, salesViewRoutes } from '@wv/contracts';
import { fetchApiFile } from '@/lib/api-client';
import { saveFile } from '@/lib/save-file';
import type { TransactionFilters, TransactionKind } from './get-transactions';

/**
 * 'Entire Dataset': the server streams every row matching the filters and sort as table_data.xlsx
 * (docs/rest-api.md, "Details"). It is fetched with the bearer token, then saved as table_data.xlsx.
 */
export async function exportTransactions(
  kind: TransactionKind,
  machineId: string,
  filters: TransactionFilters,
): Promise<void> {
  const route = kind === 'card' ? salesViewRoutes.cardTransactionsExport : salesViewRoutes.coinTransactionsExport;
  const blob = await fetchApiFile(route, { params: { machineId }, query: { ...filters } });
  saveFile(blob, EXPORT_FILE_NAME);
}
