import { useState } from 'react';
import type { PendingFloatRequest } from '@wv/contracts';
import { ApiError, fieldErrors, serverText } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';
import { useIdempotencyKey } from '@/hooks/use-idempotency-key';
import { Loading } from '@/components/ui/loading';
import { StatusMessage } from '@/components/ui/status-message';
import { useAssignFloat } from '../api/assign-float';
import { useManagerFloatRequests } from '../api/get-manager-float-requests';
import { useRejectFloat } from '../api/reject-float';
import { FloatApprovalRow } from './float-approval-row';

type Result = { tone: 'success' | 'error'; text: string };

/**
 * Float Approval (docs/web-app.md, "Screens"): each pending request with Attendant ID and Requested Float;
 * 'Assign Float' approves it with the (editable) amount and removes it from the list; Reject refuses it. A refused
 * amount is named beside that request's field; another refusal shows 'Error: ' and the server's text.
 */
export function FloatApproval() {
  const { t } = useTranslation();
  const requests = useManagerFloatRequests();
  const assign = useAssignFloat();
  const reject = useRejectFloat();
  const idempotency = useIdempotencyKey();
  const [result, setResult] = useState<Result | null>(null);
  const [amountError, setAmountError] = useState<{ requestId: string; text: string } | null>(null);

  /** 'Error: ' and the server's text, or a fixed sentence when nothing answered. */
  const failure = (error: unknown, fallback: string): Result => ({
    tone: 'error',
    text: error instanceof ApiError ? t('float.approval.error', { detail: serverText(error) }) : fallback,
  });

  const onAssign = (request: PendingFloatRequest, amount: number) => {
    setResult(null);
    setAmountError(null);
    const body = { attendantId: request.attendantId, amount, requestId: request.requestId };
    assign.mutate(
      { body, idempotencyKey: idempotency.keyFor(body) },
      {
        onSuccess: () => {
          idempotency.settle();
          setResult({ tone: 'success', text: t('float.approval.assigned') });
        },
        onError: (error) => {
          idempotency.settle(error);
          if ('amount' in fieldErrors(error)) {
            setAmountError({ requestId: request.requestId, text: t('float.invalid.amount') });
          } else {
            setResult(failure(error, t('float.approval.assignFailed')));
          }
        },
      },
    );
  };

  const onReject = (request: PendingFloatRequest) => {
    setResult(null);
    setAmountError(null);
    reject.mutate(request.requestId, {
      onSuccess: ({ message }) => setResult({ tone: 'success', text: message }),
      onError: (error) => setResult(failure(error, t('float.approval.rejectFailed'))),
    });
  };

  if (requests.isPending) return <Loading />;
  return (
    <div className="stack">
      {result && <StatusMessage tone={result.tone}>{result.text}</StatusMessage>}
      {requests.isError ? (
        <StatusMessage tone="error">{failure(requests.error, t('float.approval.fetchFailed')).text}</StatusMessage>
      ) : requests.data.length === 0 ? (
        <p className="empty">{t('float.approval.empty')}</p>
      ) : (
        <ul className="request-list" aria-label={t('float.approval.list')}>
          {requests.data.map((request) => (
            <FloatApprovalRow
              key={request.requestId}
              request={request}
              assigning={assign.isPending && assign.variables?.body.requestId === request.requestId}
              rejecting={reject.isPending && reject.variables === request.requestId}
              amountError={amountError?.requestId === request.requestId ? amountError.text : null}
              onAmountChange={() => setAmountError((shown) => (shown?.requestId === request.requestId ? null : shown))}
              onAssign={onAssign}
              onReject={onReject}
            />
          ))}
        </ul>
      )}
    </div>
  );
}
