import { useEffect, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { MOBILE_MONEY_MAX, type Payment } from '@wv/contracts';
import { errorDetail } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';
import { formatMoney } from '@/lib/format';
import { queryKeys } from '@/lib/query-keys';
import { useIdempotencyKey } from '@/hooks/use-idempotency-key';
import { Button } from '@/components/ui/button';
import { StatusMessage } from '@/components/ui/status-message';
import { TextField } from '@/components/ui/text-field';
import { usePayment } from '../api/get-payment';
import { useMobileTopUp } from '../api/mobile-top-up';
import { useLivePayments } from '../hooks/use-live-payments';
import { MAX_TEXT, topUpFailure, type PaymentField } from './payment-errors';

/** Whole shillings from 1 to MOBILE_MONEY_MAX, or null (M-Pesa moves no cents). */
export function parseShillings(text: string): number | null {
  const value = text.trim();
  if (!/^\d{1,6}$/.test(value)) return null;
  const amount = Number(value);
  return amount >= 1 && amount <= MOBILE_MONEY_MAX ? amount : null;
}

/** A phone number worth sending: at least 9 digits, only digits, spaces, dashes and a leading +. */
export const plausiblePhone = (text: string) => /^\+?[\d\s-]{9,20}$/.test(text.trim());

interface MobileTopUpFormProps {
  cardId: string;
}

type Errors = Partial<Record<PaymentField, string>>;

/**
 * Top up by M-Pesa (docs/web-app.md, "Payments and M-Pesa top-ups"): the customer's phone and whole shillings
 * ask for an STK push; the payment's status is then followed until it settles (live, by `payment.updated`,
 * with a slower poll behind it), and a settled payment of the card, this one or a paybill payment, refreshes
 * the card's balance and history. A retry after no answer reuses the Idempotency-Key, so the phone is asked once.
 */
export function MobileTopUpForm({ cardId }: MobileTopUpFormProps) {
  const { t } = useTranslation();
  useLivePayments(cardId);
  const request = useMobileTopUp();
  const idempotency = useIdempotencyKey();
  const [phone, setPhone] = useState('');
  const [amount, setAmount] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [paymentId, setPaymentId] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = parseShillings(amount);
    const found: Errors = {};
    if (!phone.trim()) found.phoneNumber = t('payments.topUp.phoneMissing');
    else if (!plausiblePhone(phone)) found.phoneNumber = t('payments.topUp.phoneInvalid');
    if (value === null) found.amount = t('payments.topUp.amountInvalid', { max: MAX_TEXT });
    setErrors(found);
    if (Object.keys(found).length > 0 || value === null) return;
    const body = { cardId, phoneNumber: phone.trim(), amount: value };
    request.mutate(
      { ...body, idempotencyKey: idempotency.keyFor(body) },
      {
        onSuccess: (answer) => {
          idempotency.settle();
          setPaymentId(answer.paymentId);
        },
        onError: (failure) => {
          idempotency.settle(failure);
          const { field, message } = topUpFailure(failure, t);
          setErrors({ [field]: message });
        },
      },
    );
  };

  const startOver = () => {
    setPaymentId(null);
    setAmount('');
    request.reset();
  };

  const clear = (field: PaymentField) => setErrors((current) => ({ ...current, [field]: undefined, form: undefined }));

  return (
    <form className="form card-action" aria-label={t('payments.topUp.title')} onSubmit={submit} noValidate>
      <h3 className="panel-subtitle">{t('payments.topUp.title')}</h3>
      {paymentId ? (
        <>
          <TopUpProgress paymentId={paymentId} />
          <div className="actions">
            <Button variant="secondary" onClick={startOver}>
              {t('payments.topUp.another')}
            </Button>
          </div>
        </>
      ) : (
        <>
          <p className="field-hint">{t('payments.topUp.hint')}</p>
          <TextField
            label={t('payments.topUp.phone')}
            type="tel"
            inputMode="tel"
            autoComplete="off"
            placeholder={t('payments.topUp.phonePlaceholder')}
            required
            value={phone}
            error={errors.phoneNumber}
            onChange={(event) => {
              setPhone(event.target.value);
              clear('phoneNumber');
            }}
          />
          <TextField
            label={t('payments.topUp.amount')}
            type="number"
            inputMode="numeric"
            min="1"
            max={MOBILE_MONEY_MAX}
            step="1"
            required
            value={amount}
            error={errors.amount}
            onChange={(event) => {
              setAmount(event.target.value);
              clear('amount');
            }}
          />
          {errors.form && <StatusMessage tone="error">{errors.form}</StatusMessage>}
          <div className="actions">
            <Button type="submit" busy={request.isPending}>
              {t('payments.topUp.submit')}
            </Button>
          </div>
        </>
      )}
    </form>
  );
}

/** The live status of one top-up in plain words; a settled payment refreshes the card once. */
function TopUpProgress({ paymentId }: { paymentId: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const payment = usePayment(paymentId);
  const status = payment.data?.status;

  useEffect(() => {
    // The card's balance, its row and its history (all under `cards`) are asked again once it settled.
    if (status && status !== 'pending') void queryClient.invalidateQueries({ queryKey: queryKeys.cardsAll });
  }, [status, queryClient]);

  if (!payment.data) {
    return payment.isError ? (
      <StatusMessage tone="error">
        {t('payments.topUp.statusError', { detail: errorDetail(payment.error) })}
      </StatusMessage>
    ) : (
      <StatusMessage tone="info">{t('payments.topUp.pending')}</StatusMessage>
    );
  }
  return (
    <>
      <p className="field-hint">
        {t('payments.topUp.requested', {
          amount: formatMoney(payment.data.amount),
          phone: payment.data.phoneNumber ?? '',
        })}
      </p>
      <ProgressLine payment={payment.data} />
    </>
  );
}

function ProgressLine({ payment }: { payment: Payment }) {
  const { t } = useTranslation();
  const amount = formatMoney(payment.amount);
  switch (payment.status) {
    case 'pending':
      return <StatusMessage tone="info">{t('payments.topUp.pending')}</StatusMessage>;
    case 'completed':
      return (
        <StatusMessage tone="success">
          {payment.receipt
            ? t('payments.topUp.completed', { receipt: payment.receipt, amount })
            : t('payments.topUp.completedNoReceipt', { amount })}
        </StatusMessage>
      );
    case 'cancelled':
      return <StatusMessage tone="error">{t('payments.topUp.cancelled')}</StatusMessage>;
    case 'failed':
      return <StatusMessage tone="error">{t('payments.topUp.failed')}</StatusMessage>;
    case 'unmatched':
      return <StatusMessage tone="info">{t('payments.topUp.unmatched')}</StatusMessage>;
  }
}
