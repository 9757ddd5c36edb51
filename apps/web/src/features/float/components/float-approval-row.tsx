import { useState, type FormEvent } from 'react';
import type { PendingFloatRequest } from '@wv/contracts';
import { formatDateTime } from '@/lib/dates';
import { formatMoney } from '@/lib/format';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';

interface FloatApprovalRowProps {
  request: PendingFloatRequest;
  assigning: boolean;
  rejecting: boolean;
  onAssign: (request: PendingFloatRequest, amount: number) => void;
  onReject: (request: PendingFloatRequest) => void;
}

/** One pending request; the amount to assign starts at the requested amount and may be changed. */
export function FloatApprovalRow({ request, assigning, rejecting, onAssign, onReject }: FloatApprovalRowProps) {
  const [amount, setAmount] = useState(String(request.requestedAmount));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onAssign(request, Number(amount));
  };

  return (
    <li className="request-card" aria-label={`Float request from ${request.attendantName}`}>
      <dl className="request-facts">
        <div>
          <dt>Attendant ID</dt>
          <dd className="request-id">{request.attendantId}</dd>
        </div>
        <div>
          <dt>Attendant</dt>
          <dd>{request.attendantName}</dd>
        </div>
        <div>
          <dt>Requested Float</dt>
          <dd className="request-amount">{formatMoney(request.requestedAmount)}</dd>
        </div>
        <div>
          <dt>Requested At</dt>
          <dd>{formatDateTime(request.requestedAt)}</dd>
        </div>
      </dl>
      <form className="request-form" onSubmit={submit}>
        <TextField
          label="Amount to assign"
          type="number"
          step="0.01"
          min="0.01"
          inputMode="decimal"
          required
          value={amount}
          onChange={(event) => setAmount(event.target.value)}
        />
        <div className="actions">
          <Button type="submit" busy={assigning} disabled={rejecting}>
            Assign Float
          </Button>
          <Button variant="danger" busy={rejecting} disabled={assigning} onClick={() => onReject(request)}>
            Reject
          </Button>
        </div>
      </form>
    </li>
  );
}
