import { useState, type FormEvent } from 'react';
import { ApiError, serverText } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';
import { useFields } from '@/hooks/use-fields';
import { useIdempotencyKey } from '@/hooks/use-idempotency-key';
import { Button } from '@/components/ui/button';
import { StatusMessage } from '@/components/ui/status-message';
import { TextField } from '@/components/ui/text-field';
import { useRequestFloat } from '../api/request-float';

const EMPTY = { amount: '' };

/**
 * Request Float (docs/web-app.md, "Screens"): 'Request Float Amount' and 'Request Float'. Success clears the
 * field and reloads the history; a refused amount is named beside the field in plain words, another refusal shows
 * 'Error: ' with the server's text, no answer at all 'Error submitting float request'.
 */
export function RequestFloatForm() {
  const { t } = useTranslation();
  const fields = useFields(EMPTY);
  const [result, setResult] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const mutation = useRequestFloat();
  const idempotency = useIdempotencyKey();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setResult(null);
    const body = { amount: Number(fields.values.amount) };
    mutation.mutate(
      { body, idempotencyKey: idempotency.keyFor(body) },
      {
        onSuccess: () => {
          idempotency.settle();
          fields.reset();
          setResult({ tone: 'success', text: t('float.request.done') });
        },
        onError: (error) => {
          idempotency.settle(error);
          const placed = fields.showServerErrors(error, (name) => t(`float.invalid.${name}`));
          if (placed.length) return;
          setResult({
            tone: 'error',
            text:
              error instanceof ApiError
                ? t('float.request.error', { detail: serverText(error) })
                : t('float.request.failed'),
          });
        },
      },
    );
  };

  return (
    <form className="form form-inline" onSubmit={submit} aria-label={t('float.request.title')}>
      <TextField
        label={t('float.request.amount')}
        type="number"
        step="0.01"
        inputMode="decimal"
        required
        {...fields.bind('amount')}
      />
      <div className="actions">
        <Button type="submit" busy={mutation.isPending}>
          {t('float.request.submit')}
        </Button>
      </div>
      {result && <StatusMessage tone={result.tone}>{result.text}</StatusMessage>}
    </form>
  );
}
