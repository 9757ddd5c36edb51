import { useId, useRef, useState, type FormEvent } from 'react';
import type { StatementImportResponse } from '@wv/contracts';
import { ApiError, serverText } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { StatusMessage } from '@/components/ui/status-message';
import { useImportStatement } from '../api/import-statement';
import { commonFailure } from './payment-errors';

const STATEMENT_TYPES = /\.(csv|xlsx)$/i;

/** The server's sentence about the file (it names the bad line), without the field name before it. */
const refusalOf = (failure: ApiError) => failure.body?.fields?.[0]?.message ?? serverText(failure) ?? '';

/**
 * Upload an M-Pesa statement (admin; docs/web-app.md, "Payments and M-Pesa top-ups"): the organisation
 * statement as CSV or xlsx, and what it did in plain words: how many receipts it held, how many it credited,
 * how many are left unmatched.
 */
export function StatementUpload() {
  const { t } = useTranslation();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const upload = useImportStatement();
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<StatementImportResponse | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const file = input.current?.files?.[0];
    setResult(null);
    if (!file) return setError(t('payments.statement.missing'));
    if (!STATEMENT_TYPES.test(file.name)) return setError(t('payments.statement.wrongType'));
    setError(null);
    upload.mutate(file, {
      onSuccess: (answer) => {
        setResult(answer);
        if (input.current) input.current.value = '';
      },
      onError: (failure) =>
        setError(
          failure instanceof ApiError && (failure.status === 400 || failure.status === 413)
            ? t('payments.statement.refused', { detail: refusalOf(failure) })
            : commonFailure(failure, t),
        ),
    });
  };

  const errorId = `${id}-error`;
  return (
    <Card title={t('payments.statement.title')}>
      <form className="form" aria-label={t('payments.statement.title')} onSubmit={submit} noValidate>
        <p className="field-hint">{t('payments.statement.lead')}</p>
        <div className={error ? 'field field-invalid' : 'field'}>
          <div className="field-label">
            <label htmlFor={id}>{t('payments.statement.file')}</label>
          </div>
          <input
            ref={input}
            id={id}
            type="file"
            accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            onChange={() => {
              setError(null);
              setResult(null);
            }}
          />
          {error && (
            <small id={errorId} className="field-error" role="alert">
              {error}
            </small>
          )}
        </div>
        <div className="actions">
          <Button type="submit" busy={upload.isPending}>
            {t('payments.statement.submit')}
          </Button>
        </div>
        {result && (
          <StatusMessage tone="success" detail={result.unmatched > 0 ? t('payments.statement.unmatchedHint') : null}>
            {result.credited === 0 && result.unmatched === 0
              ? t('payments.statement.nothingNew', { seen: result.seen })
              : t('payments.statement.result', result)}
          </StatusMessage>
        )}
      </form>
    </Card>
  );
}
