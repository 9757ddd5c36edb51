import { useMutation, useQueryClient } from '@tanstack/react-query';
import { paymentRoutes } from '@wv/contracts';
import { callApiForm } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { paymentKeys } from './payment-keys';

/** The form field the server reads the statement from (docs/mobile-money.md, "Statements"). */
export const STATEMENT_FIELD = 'file';

export function importStatement(file: File) {
  const form = new FormData();
  form.append(STATEMENT_FIELD, file, file.name);
  return callApiForm(paymentRoutes.importStatement, form);
}

/** POST /payments/statement (admin): receipts never seen are credited or become unmatched. */
export function useImportStatement() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importStatement,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: paymentKeys.all });
      void queryClient.invalidateQueries({ queryKey: queryKeys.cardsAll });
    },
  });
}
