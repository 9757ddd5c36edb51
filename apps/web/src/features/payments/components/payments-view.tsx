import { useState, type FormEvent } from 'react';
import { PAYMENT_STATUSES, type Payment, type PaymentStatus } from '@wv/contracts';
import { errorDetail } from '@/lib/api-client';
import { formatDateTime } from '@/lib/dates';
import { formatMoney } from '@/lib/format';
import { useTranslation } from '@/lib/i18n';
import { Button } from '@/components/ui/button';
import { PageSteps } from '@/components/ui/page-steps';
import { Loading } from '@/components/ui/loading';
import { SelectField } from '@/components/ui/select-field';
import { StatusMessage } from '@/components/ui/status-message';
import { TextField } from '@/components/ui/text-field';
import { usePayments, type PaymentFilters } from '../api/get-payments';
import { useLivePayments } from '../hooks/use-live-payments';
import { MatchPaymentForm } from './match-payment-form';
import { isUnknownCardFilter } from './payment-errors';
import { PaymentStatusBadge } from './payment-status';
import { StatementUpload } from './statement-upload';

const LIMIT = 25;
const EMPTY = { status: '', cardId: '' };

interface PaymentsViewProps {
  /** Admins see unmatched payments, match them and upload statements; managers see their cards' payments. */
  isAdmin: boolean;
}

/**
 * Payments (docs/web-app.md, "Payments and M-Pesa top-ups"): M-Pesa payments in the caller's scope with filters
 * and pages, asked again when one changes (`payment.updated`); an admin matches an unmatched payment to a card
 * and reconciles with the M-Pesa statement.
 */
export function PaymentsView({ isAdmin }: PaymentsViewProps) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(EMPTY);
  const [filters, setFilters] = useState<PaymentFilters>({});
  const [page, setPage] = useState(1);
  const [matching, setMatching] = useState<Payment | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const payments = usePayments({ ...filters, page, limit: LIMIT });
  useLivePayments();
  const statuses = PAYMENT_STATUSES.filter((status) => isAdmin || status !== 'unmatched');

  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFilters({
      status: (draft.status || undefined) as PaymentStatus | undefined,
      cardId: draft.cardId.trim() || undefined,
    });
    setPage(1);
  };

  const reset = () => {
    setDraft(EMPTY);
    setFilters({});
    setPage(1);
  };

  return (
    <div className="stack">
      {isAdmin && <StatementUpload />}
      <form className="card filter-grid" onSubmit={apply} aria-label={t('payments.filter.title')}>
        <SelectField
          label={t('payments.filter.status')}
          placeholder={t('payments.filter.anyStatus')}
          options={statuses.map((status) => ({ value: status, label: t(`payments.status.${status}`) }))}
          value={draft.status}
          onChange={(event) => setDraft((values) => ({ ...values, status: event.target.value }))}
        />
        <TextField
          label={t('payments.filter.cardId')}
          autoComplete="off"
          value={draft.cardId}
          onChange={(event) => setDraft((values) => ({ ...values, cardId: event.target.value }))}
        />
        <div className="actions filter-actions">
          <Button type="submit">{t('payments.filter.submit')}</Button>
          <Button variant="secondary" onClick={reset}>
            {t('payments.filter.reset')}
          </Button>
        </div>
      </form>

      {notice && <StatusMessage tone="success">{notice}</StatusMessage>}
      {matching && (
        <MatchPaymentForm
          key={matching.paymentId}
          payment={matching}
          onClose={() => setMatching(null)}
          onDone={(message) => {
            setMatching(null);
            setNotice(message);
          }}
        />
      )}

      {payments.isPending ? (
        <Loading />
      ) : payments.isError ? (
        <StatusMessage tone="error">
          {isUnknownCardFilter(payments.error)
            ? t('payments.match.cardNotFound')
            : t('payments.loadError', { detail: errorDetail(payments.error) })}
        </StatusMessage>
      ) : (
        <>
          {payments.data.data.length === 0 ? (
            <p className="empty">{t('payments.empty')}</p>
          ) : (
            <div
              className={payments.isPlaceholderData ? 'table-wrap table-busy' : 'table-wrap'}
              aria-busy={payments.isPlaceholderData || undefined}
            >
              <PaymentTable
                payments={payments.data.data}
                canMatch={isAdmin}
                onMatch={(payment) => {
                  setNotice(null);
                  setMatching(payment);
                }}
              />
            </div>
          )}
          <PageSteps
            page={page}
            limit={LIMIT}
            total={payments.data.total}
            onPage={setPage}
            label={t('payments.pagination')}
          />
        </>
      )}
    </div>
  );
}

interface PaymentTableProps {
  payments: readonly Payment[];
  canMatch: boolean;
  onMatch: (payment: Payment) => void;
}

/** One row per payment; on a phone each row is a card of labelled lines (`table-stack`). */
function PaymentTable({ payments, canMatch, onMatch }: PaymentTableProps) {
  const { t } = useTranslation();
  const label = (key: 'time' | 'cardId' | 'amount' | 'phone' | 'method' | 'status' | 'receipt' | 'action') =>
    t(`payments.column.${key}`);
  return (
    <table className="table table-stack">
      <caption className="visually-hidden">{t('payments.list')}</caption>
      <thead>
        <tr>
          <th scope="col">{label('time')}</th>
          <th scope="col">{label('cardId')}</th>
          <th scope="col" className="num">
            {label('amount')}
          </th>
          <th scope="col">{label('phone')}</th>
          <th scope="col">{label('method')}</th>
          <th scope="col">{label('status')}</th>
          <th scope="col">{label('receipt')}</th>
          {canMatch && <th scope="col">{label('action')}</th>}
        </tr>
      </thead>
      <tbody>
        {payments.map((payment) => (
          <tr key={payment.paymentId}>
            <td data-label={label('time')} className="nowrap">
              {formatDateTime(payment.completedAt ?? payment.createdAt)}
            </td>
            <td data-label={label('cardId')} className="cell-id">
              {payment.cardId ?? t('payments.noCard')}
            </td>
            <td data-label={label('amount')} className="num">
              {formatMoney(payment.amount)}
            </td>
            <td data-label={label('phone')}>{payment.phoneNumber ?? ''}</td>
            <td data-label={label('method')}>{t(`payments.method.${payment.method}`)}</td>
            <td data-label={label('status')}>
              <PaymentStatusBadge status={payment.status} />
            </td>
            <td data-label={label('receipt')} className="cell-id">
              {payment.receipt ?? ''}
            </td>
            {canMatch && (
              <td data-label={label('action')}>
                {payment.status === 'unmatched' && (
                  <Button variant="secondary" onClick={() => onMatch(payment)}>
                    {t('payments.match.button')}
                  </Button>
                )}
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
