import { useState } from 'react';
import type { PendingFloatRequest } from '@wv/contracts';
import { ApiError, serverText } from '@/lib/api-client';
import { useIdempotencyKey } from '@/hooks/use-idempotency-key';
import { Loading } from '@/components/ui/loading';
import { StatusMessage } from '@/components/ui/status-message';
import { useAssignFloat } from '../api/assign-float';
import { useManagerFloatRequests } from '../api/get-manager-float-requests';
import { useRejectFloat } from '../api/reject-float';
import { FloatApprovalRow } from './float-approval-row';

type Result = { tone: 'success' | 'error'; text: string };

/** 'Error: ' and the server's text, or a fixed sentence when nothing answered. */
const failure = (error: unknown, fallback: string): Result => ({
  tone: 'error',
  text: error instanceof ApiError ? `Error: ${serverText(error)}` : fallback,
});

/**
 * Float Approval (docs/web-app.md, "Screens"): each pending request with Attendant ID and Requested Float;
 * 'Assign Float' approves it with the (editable) amount and removes it from the list; Reject refuses it.
 */
export function FloatApproval() {
  const requests = useManagerFloatRequests();
  const assign = useAssignFloat();
  const reject = useRejectFloat();
  const idempotency = useIdempotencyKey();
  const [result, setResult] = useState<Result | null>(null);

  const onAssign = (request: PendingFloatRequest, amount: number) => {
    setResult(null);
    const body = { attendantId: request.attendantId, amount, requestId: request.requestId };
    assign.mutate(
      { body, idempotencyKey: idempotency.keyFor(body) },
      {
        onSuccess: () => {
          idempotency.settle();
          setResult({ tone: 'success', text: 'Float assigned successfully' });
        },
        onError: (error) => {
          idempotency.settle(error);
          setResult(failure(error, 'Error assigning float'));
        },
      },
    );
  };

  const onReject = (request: PendingFloatRequest) => {
    setResult(null);
    reject.mutate(request.requestId, {
      onSuccess: ({ message }) => setResult({ tone: 'success', text: message }),
      onError: (error) => setResult(failure(error, 'Error rejecting float')),
    });
  };

  if (requests.isPending) return <Loading />;
  return (
    <div className="stack">
      {result && <StatusMessage tone={result.tone}>{result.text}</StatusMessage>}
      {requests.isError ? (
        <StatusMessage tone="error">{failure(requests.error, 'Error fetching float requests').text}</StatusMessage>
      ) : requests.data.length === 0 ? (
        <p className="empty">No float requests pending</p>
      ) : (
        <ul className="request-list" aria-label="Pending float requests">
          {requests.data.map((request) => (
            <FloatApprovalRow
              key={request.requestId}
              request={request}
              assigning={assign.isPending && assign.variables?.body.requestId === request.requestId}
              rejecting={reject.isPending && reject.variables === request.requestId}
              onAssign={onAssign}
              onReject={onReject}
            />
          ))}
        </ul>
      )}
    </div>
  );
}
