import { useState, type FormEvent } from 'react';
import { ApiError, serverText } from '@/lib/api-client';
import { useIdempotencyKey } from '@/hooks/use-idempotency-key';
import { Button } from '@/components/ui/button';
import { StatusMessage } from '@/components/ui/status-message';
import { TextField } from '@/components/ui/text-field';
import { useRequestFloat } from '../api/request-float';

/**
 * Request Float (docs/web-app.md, "Screens"): 'Request Float Amount' and 'Request Float'. Success clears the
 * field and reloads the history; a refusal shows 'Error: ' with the server's text, no answer at all
 * 'Error submitting float request'.
 */
export function RequestFloatForm() {
  const [amount, setAmount] = useState('');
  const [result, setResult] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const mutation = useRequestFloat();
  const idempotency = useIdempotencyKey();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setResult(null);
    const body = { amount: Number(amount) };
    mutation.mutate(
      { body, idempotencyKey: idempotency.keyFor(body) },
      {
        onSuccess: () => {
          idempotency.settle();
          setAmount('');
          setResult({ tone: 'success', text: 'Float request submitted successfully' });
        },
        onError: (error) => {
          idempotency.settle(error);
          setResult({
            tone: 'error',
            text: error instanceof ApiError ? `Error: ${serverText(error)}` : 'Error submitting float request',
          });
        },
      },
    );
  };

  return (
    <form className="form form-inline" onSubmit={submit} aria-label="Request Float">
      <TextField
        label="Request Float Amount"
        type="number"
        step="0.01"
        inputMode="decimal"
        required
        value={amount}
        onChange={(event) => setAmount(event.target.value)}
      />
      <div className="actions">
        <Button type="submit" busy={mutation.isPending}>
          Request Float
        </Button>
      </div>
      {result && <StatusMessage tone={result.tone}>{result.text}</StatusMessage>}
    </form>
  );
}
