import { useState, type FormEvent } from 'react';
import type { CardRow } from '@wv/contracts';
import { useTranslation } from '@/lib/i18n';
import { formatMoney } from '@/lib/format';
import { useIdempotencyKey } from '@/hooks/use-idempotency-key';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import { useTopUpCard } from '../api/top-up-card';
import { cardActionError } from './card-errors';

/** An amount of money above 0 with at most two decimals (docs/rest-api.md, "Conventions"), or null. */
export function parseAmount(text: string): number | null {
  const value = text.trim();
  if (!/^\d+(\.\d{1,2})?$/.test(value)) return null;
  const amount = Number(value);
  return amount > 0 ? amount : null;
}

interface TopUpCardFormProps {
  card: CardRow;
  onDone: (message: string) => void;
}

/** The attendant tops a card up from their float; a retry after no answer reuses its Idempotency-Key. */
export function TopUpCardForm({ card, onDone }: TopUpCardFormProps) {
  const { t } = useTranslation();
  const topUp = useTopUpCard();
  const idempotency = useIdempotencyKey();
  const [amount, setAmount] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = parseAmount(amount);
    if (value === null) return setError(t('cards.topUp.invalid'));
    setError(null);
    const body = { cardId: card.card_id, amount: value };
    topUp.mutate(
      { ...body, idempotencyKey: idempotency.keyFor(body) },
      {
        onSuccess: ({ card_balance }) => {
          idempotency.settle();
          setAmount('');
          onDone(t('cards.topUp.done', { balance: formatMoney(card_balance) }));
        },
        onError: (failure) => {
          idempotency.settle(failure);
          setError(cardActionError(failure, 'amount', t));
        },
      },
    );
  };

  return (
    <form className="form card-action" aria-label={t('cards.topUp.title')} onSubmit={submit} noValidate>
      <h3 className="panel-subtitle">{t('cards.topUp.title')}</h3>
      <TextField
        label={t('cards.topUp.amount')}
        type="number"
        inputMode="decimal"
        min="0.01"
        step="0.01"
        required
        value={amount}
        error={error}
        onChange={(event) => {
          setAmount(event.target.value);
          setError(null);
        }}
      />
      <div className="actions">
        <Button type="submit" busy={topUp.isPending}>
          {t('cards.topUp.submit')}
        </Button>
      </div>
    </form>
  );
}
