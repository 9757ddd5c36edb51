import { useState, type FormEvent } from 'react';
import type { Payment } from '@wv/contracts';
import { useTranslation } from '@/lib/i18n';
import { formatMoney } from '@/lib/format';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { TextField } from '@/components/ui/text-field';
import { useMatchPayment } from '../api/match-payment';
import { matchFailure } from './payment-errors';

interface MatchPaymentFormProps {
  payment: Payment;
  onDone: (message: string) => void;
  onClose: () => void;
}

/**
 * The admin credits an unmatched payment to a card, after confirming (docs/web-app.md, "Payments and M-Pesa
 * top-ups").
 */
export function MatchPaymentForm({ payment, onDone, onClose }: MatchPaymentFormProps) {
  const { t } = useTranslation();
  const match = useMatchPayment();
  const [cardId, setCardId] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const amount = formatMoney(payment.amount);
  const receipt = payment.receipt ?? payment.paymentId;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!cardId.trim()) return setError(t('payments.match.missing'));
    setError(null);
    setConfirming(true);
  };

  const confirm = () => {
    const target = cardId.trim();
    match.mutate(
      { paymentId: payment.paymentId, cardId: target },
      {
        onSuccess: () => {
          setConfirming(false);
          onDone(t('payments.match.done', { receipt, cardId: target }));
        },
        onError: (failure) => {
          setConfirming(false);
          setError(matchFailure(failure, t));
        },
      },
    );
  };

  return (
    <Card title={t('payments.match.title', { receipt })}>
      <form className="form" aria-label={t('payments.match.title', { receipt })} onSubmit={submit} noValidate>
        <p>{t('payments.match.lead', { amount, phone: payment.phoneNumber ?? '' })}</p>
        <TextField
          label={t('payments.match.cardId')}
          autoComplete="off"
          required
          value={cardId}
          error={error}
          onChange={(event) => {
            setCardId(event.target.value);
            setError(null);
          }}
        />
        <div className="actions">
          <Button type="submit">{t('payments.match.submit')}</Button>
          <Button variant="secondary" onClick={onClose}>
            {t('payments.match.close')}
          </Button>
        </div>
      </form>
      {confirming && (
        <ConfirmDialog
          title={t('payments.match.confirmTitle', { amount, cardId: cardId.trim() })}
          confirmLabel={t('payments.match.confirm')}
          cancelLabel={t('common.cancel')}
          busy={match.isPending}
          onConfirm={confirm}
          onCancel={() => setConfirming(false)}
        >
          {t('payments.match.confirmText', { amount })}
        </ConfirmDialog>
      )}
    </Card>
  );
}
