import { useState, type FormEvent } from 'react';
import type { CardRow } from '@wv/contracts';
import { useTranslation } from '@/lib/i18n';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import { useSetCardLimit } from '../api/set-card-limit';
import { cardActionError } from './card-errors';

const MAX_LITRES = 100_000;

/** Litres above 0, at most MAX_LITRES, with up to three decimals (docs/rest-api.md, "Selling offline"). */
export function parseLitres(text: string): number | null | 'invalid' {
  const value = text.trim();
  if (value === '') return null;
  if (!/^\d+(\.\d{1,3})?$/.test(value)) return 'invalid';
  const litres = Number(value);
  return litres > 0 && litres <= MAX_LITRES ? litres : 'invalid';
}

interface CardLimitFormProps {
  card: CardRow;
  onDone: (message: string) => void;
}

/** The daily limit of litres (owner manager and admin): empty, or Remove limit, means none. */
export function CardLimitForm({ card, onDone }: CardLimitFormProps) {
  const { t } = useTranslation();
  const setLimit = useSetCardLimit();
  const [litres, setLitres] = useState(card.dailyLimitLitres === null ? '' : String(card.dailyLimitLitres));
  const [error, setError] = useState<string | null>(null);

  const send = (dailyLimitLitres: number | null) => {
    setError(null);
    setLimit.mutate(
      { cardId: card.card_id, dailyLimitLitres },
      {
        onSuccess: (saved) => {
          setLitres(saved.dailyLimitLitres === null ? '' : String(saved.dailyLimitLitres));
          onDone(t(saved.dailyLimitLitres === null ? 'cards.limit.removed' : 'cards.limit.saved'));
        },
        onError: (failure) => setError(cardActionError(failure, 'dailyLimit', t)),
      },
    );
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = parseLitres(litres);
    if (value === 'invalid') return setError(t('cards.limit.invalid'));
    send(value);
  };

  return (
    <form className="form card-action" aria-label={t('cards.limit.title')} onSubmit={submit} noValidate>
      <h3 className="panel-subtitle">{t('cards.limit.title')}</h3>
      <TextField
        label={t('cards.limit.field')}
        hint={t('cards.limit.hint')}
        type="number"
        inputMode="decimal"
        min="0.001"
        step="0.001"
        value={litres}
        error={error}
        onChange={(event) => {
          setLitres(event.target.value);
          setError(null);
        }}
      />
      <div className="actions">
        <Button type="submit" busy={setLimit.isPending}>
          {t('cards.limit.save')}
        </Button>
        {card.dailyLimitLitres !== null && (
          <Button variant="secondary" disabled={setLimit.isPending} onClick={() => send(null)}>
            {t('cards.limit.remove')}
          </Button>
        )}
      </div>
    </form>
  );
}
