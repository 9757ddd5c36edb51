import { useState, type FormEvent } from 'react';
import type { CardRow } from '@wv/contracts';
import { useTranslation } from '@/lib/i18n';
import { formatMoney } from '@/lib/format';
import { useIdempotencyKey } from '@/hooks/use-idempotency-key';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { TextField } from '@/components/ui/text-field';
import { useReplaceCard } from '../api/replace-card';
import { cardActionError } from './card-errors';

const CARD_ID_MAX = 64;

interface ReplaceCardFormProps {
  card: CardRow;
  /** The new card, once the server made it: the screen moves to it. */
  onReplaced: (created: CardRow) => void;
}

/**
 * Replacing a lost card (docs/web-app.md, "My Cards"): the new card's ID, then a confirmation saying that the
 * balance moves and the old card is blocked for good.
 */
export function ReplaceCardForm({ card, onReplaced }: ReplaceCardFormProps) {
  const { t } = useTranslation();
  const replace = useReplaceCard();
  const idempotency = useIdempotencyKey();
  const [newCardId, setNewCardId] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);

  const ask = (event: FormEvent) => {
    event.preventDefault();
    const id = newCardId.trim();
    if (!id) return setError(t('cards.replace.missing'));
    if (id.length > CARD_ID_MAX) return setError(t('cards.replace.tooLong', { max: CARD_ID_MAX }));
    if (id === card.card_id) return setError(t('cards.replace.same'));
    setError(null);
    setConfirming(true);
  };

  const confirm = () => {
    const body = { cardId: card.card_id, newCardId: newCardId.trim() };
    replace.mutate(
      { ...body, idempotencyKey: idempotency.keyFor(body) },
      {
        onSuccess: (created) => {
          idempotency.settle();
          setConfirming(false);
          onReplaced(created);
        },
        onError: (failure) => {
          idempotency.settle(failure);
          setConfirming(false);
          setError(cardActionError(failure, 'newCardId', t));
        },
      },
    );
  };

  return (
    <form className="form card-action" aria-label={t('cards.replace.title')} onSubmit={ask} noValidate>
      <h3 className="panel-subtitle">{t('cards.replace.title')}</h3>
      <TextField
        label={t('cards.replace.newCardId')}
        autoComplete="off"
        maxLength={CARD_ID_MAX}
        required
        value={newCardId}
        error={error}
        onChange={(event) => {
          setNewCardId(event.target.value);
          setError(null);
        }}
      />
      <div className="actions">
        <Button type="submit" variant="danger">
          {t('cards.replace.submit')}
        </Button>
      </div>
      {confirming && (
        <ConfirmDialog
          title={t('cards.replace.confirmTitle', { cardId: card.card_id })}
          confirmLabel={t('cards.replace.confirm')}
          cancelLabel={t('common.cancel')}
          busy={replace.isPending}
          onConfirm={confirm}
          onCancel={() => setConfirming(false)}
        >
          <p>
            {t('cards.replace.confirmText', {
              cardId: card.card_id,
              newCardId: newCardId.trim(),
              balance: formatMoney(card.card_balance),
            })}
          </p>
        </ConfirmDialog>
      )}
    </form>
  );
}
