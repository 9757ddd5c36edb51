import { useState, type FormEvent } from 'react';
import type { PendingFloatRequest } from '@wv/contracts';
import { formatDateTime } from '@/lib/dates';
import { formatMoney } from '@/lib/format';
import { useTranslation } from '@/lib/i18n';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';

interface FloatApprovalRowProps {
  request: PendingFloatRequest;
  assigning: boolean;
  rejecting: boolean;
  /** What is wrong with the amount, in plain words, when the server refused it. */
  amountError?: string | null;
  /** The amount was changed (a refusal beside it no longer applies). */
  onAmountChange?: () => void;
  onAssign: (request: PendingFloatRequest, amount: number) => void;
  onReject: (request: PendingFloatRequest) => void;
}

/** One pending request; the amount to assign starts at the requested amount and may be changed. */
export function FloatApprovalRow({
  request,
  assigning,
  rejecting,
  amountError,
  onAmountChange,
  onAssign,
  onReject,
}: FloatApprovalRowProps) {
  const { t } = useTranslation();
  const [amount, setAmount] = useState(String(request.requestedAmount));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onAssign(request, Number(amount));
  };

  return (
    <li className="request-card" aria-label={t('float.approval.from', { name: request.attendantName })}>
      <dl className="request-facts">
        <div>
          <dt>{t('float.approval.attendantId')}</dt>
          <dd className="request-id">{request.attendantId}</dd>
        </div>
        <div>
          <dt>{t('float.approval.attendant')}</dt>
          <dd>{request.attendantName}</dd>
        </div>
        <div>
          <dt>{t('float.approval.requested')}</dt>
          <dd className="request-amount">{formatMoney(request.requestedAmount)}</dd>
        </div>
        <div>
          <dt>{t('float.approval.requestedAt')}</dt>
          <dd>{formatDateTime(request.requestedAt)}</dd>
        </div>
      </dl>
      <form className="request-form" onSubmit={submit}>
        <TextField
          label={t('float.approval.amount')}
          type="number"
          step="0.01"
          min="0.01"
          inputMode="decimal"
          required
          value={amount}
          error={amountError}
          onChange={(event) => {
            setAmount(event.target.value);
            onAmountChange?.();
          }}
        />
        <div className="actions">
          <Button type="submit" busy={assigning} disabled={rejecting}>
            {t('float.approval.assign')}
          </Button>
          <Button variant="danger" busy={rejecting} disabled={assigning} onClick={() => onReject(request)}>
            {t('float.approval.reject')}
          </Button>
        </div>
      </form>
    </li>
  );
}
