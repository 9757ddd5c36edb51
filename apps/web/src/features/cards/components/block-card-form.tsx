import { useState, type FormEvent } from 'react';
import type { CardRow } from '@wv/contracts';
import { useTranslation } from '@/lib/i18n';
import { useIdempotencyKey } from '@/hooks/use-idempotency-key';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { StatusMessage } from '@/components/ui/status-message';
import { TextField } from '@/components/ui/text-field';
import { useBlockCard } from '../api/block-card';
import { useUnblockCard } from '../api/unblock-card';
import { cardActionError } from './card-errors';

const REASON_MAX = 200;

/**
 * Blocking a lost or stolen card, with its reason, after a confirmation (docs/web-app.md, "My Cards"); a blocked
 * card shows Unblock instead, for a card that was found.
 */
interface BlockCardFormProps {
  card: CardRow;
  /** Says what was done, above the card (the form itself gives way to the other one). */
  onDone: (message: string) => void;
}

export function BlockCardForm({ card, onDone }: BlockCardFormProps) {
  return card.status === 'blocked' ? (
    <UnblockCard card={card} onDone={onDone} />
  ) : (
    <BlockCard card={card} onDone={onDone} />
  );
}

function BlockCard({ card, onDone }: BlockCardFormProps) {
  const { t } = useTranslation();
  const block = useBlockCard();
  const idempotency = useIdempotencyKey();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);

  const ask = (event: FormEvent) => {
    event.preventDefault();
    const text = reason.trim();
    if (!text) return setError(t('cards.block.reasonMissing'));
    if (text.length > REASON_MAX) return setError(t('cards.block.reasonTooLong', { max: REASON_MAX }));
    setError(null);
    setConfirming(true);
  };

  const confirm = () => {
    const body = { cardId: card.card_id, reason: reason.trim() };
    block.mutate(
      { ...body, idempotencyKey: idempotency.keyFor(body) },
      {
        onSuccess: () => {
          idempotency.settle();
          onDone(t('cards.block.done'));
        },
        onError: (failure) => {
          idempotency.settle(failure);
          setError(cardActionError(failure, 'reason', t));
        },
        onSettled: () => setConfirming(false),
      },
    );
  };

  return (
    <form className="form card-action" aria-label={t('cards.block.title')} onSubmit={ask} noValidate>
      <h3 className="panel-subtitle">{t('cards.block.title')}</h3>
      <TextField
        label={t('cards.block.reason')}
        placeholder={t('cards.block.reasonPlaceholder')}
        autoComplete="off"
        maxLength={REASON_MAX}
        required
        value={reason}
        error={error}
        onChange={(event) => {
          setReason(event.target.value);
          setError(null);
        }}
      />
      <div className="actions">
        <Button type="submit" variant="danger">
          {t('cards.block.submit')}
        </Button>
      </div>
      {confirming && (
        <ConfirmDialog
          title={t('cards.block.confirmTitle', { cardId: card.card_id })}
          confirmLabel={t('cards.block.confirm')}
          cancelLabel={t('common.cancel')}
          busy={block.isPending}
          onConfirm={confirm}
          onCancel={() => setConfirming(false)}
        >
          <p>{t('cards.block.confirmText')}</p>
        </ConfirmDialog>
      )}
    </form>
  );
}

function UnblockCard({ card, onDone }: BlockCardFormProps) {
  const { t } = useTranslation();
  const unblock = useUnblockCard();
  const idempotency = useIdempotencyKey();
  const [error, setError] = useState<string | null>(null);

  const submit = () => {
    setError(null);
    const body = { cardId: card.card_id };
    unblock.mutate(
      { ...body, idempotencyKey: idempotency.keyFor(body) },
      {
        onSuccess: () => {
          idempotency.settle();
          onDone(t('cards.unblock.done'));
        },
        onError: (failure) => {
          idempotency.settle(failure);
          setError(cardActionError(failure, 'reason', t));
        },
      },
    );
  };

  return (
    <section className="card-action stack-sm" aria-label={t('cards.unblock.title')}>
      <h3 className="panel-subtitle">{t('cards.unblock.title')}</h3>
      <p className="muted">{t('cards.unblock.text')}</p>
      <div className="actions">
        <Button variant="secondary" busy={unblock.isPending} onClick={submit}>
          {t('cards.unblock.submit')}
        </Button>
      </div>
      {error && <StatusMessage tone="error">{error}</StatusMessage>}
    </section>
  );
}
