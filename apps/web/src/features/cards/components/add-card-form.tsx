import { useState, type FormEvent } from 'react';
import { ApiError, serverText } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';
import { useFields } from '@/hooks/use-fields';
import { useIdempotencyKey } from '@/hooks/use-idempotency-key';
import { Button } from '@/components/ui/button';
import { StatusMessage } from '@/components/ui/status-message';
import { TextField } from '@/components/ui/text-field';
import { useAddCard } from '../api/add-card';

const EMPTY = {
  card_id: '',
  card_holder_first_name: '',
  card_holder_last_name: '',
  phoneNumber: '',
  card_balance: '',
  card_type: '',
};

type Result = { tone: 'success' | 'error'; text: string };

/**
 * Register New User, the attendant's card registration (docs/web-app.md, "Screens" and "Behaviour"): Card ID, First
 * Name, Last Name, Mobile No (optional), Balance (step 0.01) and Card Type. A card already registered
 * (409) is an alert 'Card is already registered.'; success shows the new id and resets the form.
 */
export function AddCardForm() {
  const { t } = useTranslation();
  const fields = useFields(EMPTY);
  const mutation = useAddCard();
  const idempotency = useIdempotencyKey();
  const [result, setResult] = useState<Result | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setResult(null);
    const { phoneNumber, card_balance, ...rest } = fields.values;
    const body = { ...rest, card_balance: Number(card_balance), ...(phoneNumber.trim() ? { phoneNumber } : {}) };
    mutation.mutate(
      { body, idempotencyKey: idempotency.keyFor(body) },
      {
        onSuccess: ({ id }) => {
          idempotency.settle();
          setResult({ tone: 'success', text: t('cardScreens.register.added', { id }) });
          fields.reset();
        },
        onError: (error) => {
          idempotency.settle(error);
          if (error instanceof ApiError && error.status === 409) {
            window.alert(t('cardScreens.register.alreadyRegistered'));
          } else if (error instanceof ApiError) {
            setResult({ tone: 'error', text: t('cardScreens.register.failed', { error: serverText(error) }) });
          } else {
            setResult({ tone: 'error', text: t('cardScreens.register.networkError') });
          }
        },
      },
    );
  };

  return (
    <form className="form" onSubmit={submit} aria-label={t('cardScreens.register.title')}>
      <h2 className="form-title">{t('cardScreens.register.title')}</h2>
      <div className="form-grid">
        <TextField
          label={t('cardScreens.register.cardId')}
          required
          autoComplete="off"
          maxLength={64}
          {...fields.bind('card_id')}
        />
        <TextField
          label={t('cardScreens.register.firstName')}
          required
          autoComplete="off"
          {...fields.bind('card_holder_first_name')}
        />
        <TextField
          label={t('cardScreens.register.lastName')}
          required
          autoComplete="off"
          {...fields.bind('card_holder_last_name')}
        />
        <TextField
          label={t('cardScreens.register.mobile')}
          type="tel"
          placeholder={t('cardScreens.register.mobilePlaceholder')}
          autoComplete="off"
          {...fields.bind('phoneNumber')}
        />
        <TextField
          label={t('cardScreens.register.balance')}
          type="number"
          step="0.01"
          min="0"
          inputMode="decimal"
          required
          {...fields.bind('card_balance')}
        />
        <TextField
          label={t('cardScreens.register.cardType')}
          required
          autoComplete="off"
          maxLength={32}
          {...fields.bind('card_type')}
        />
      </div>
      <div className="actions actions-end">
        <Button type="submit" busy={mutation.isPending}>
          {t('cardScreens.register.submit')}
        </Button>
      </div>
      {result && <StatusMessage tone={result.tone}>{result.text}</StatusMessage>}
    </form>
  );
}
