import { useState, type FormEvent } from 'react';
import { ErrorCode, MIN_PASSWORD_LENGTH } from '@wv/contracts';
import { ApiError, errorDetail, fieldErrors } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { StatusMessage } from '@/components/ui/status-message';
import { TextField } from '@/components/ui/text-field';
import { useChangePassword } from '../api/change-password';

type Field = 'current' | 'new' | 'confirm';
type Problems = Partial<Record<Field, string>>;

const EMPTY = { current: '', new: '', confirm: '' };

/**
 * My Account's password change, for every role (docs/web-app.md, "My Account"): current, new and its
 * confirmation, each problem in plain words beside its field. On success every other session of the user
 * has ended, which the message says; this one continues with the token the answer carries.
 */
export function ChangePasswordCard() {
  const { t } = useTranslation();
  const [values, setValues] = useState(EMPTY);
  const [problems, setProblems] = useState<Problems>({});
  const [general, setGeneral] = useState<string | null>(null);
  const [changed, setChanged] = useState(false);
  const mutation = useChangePassword();

  const bind = (field: Field) => ({
    value: values[field],
    error: problems[field] ?? null,
    onChange: (event: { target: { value: string } }) => {
      setValues((prev) => ({ ...prev, [field]: event.target.value }));
      setProblems((prev) => ({ ...prev, [field]: undefined }));
    },
  });

  const check = (): Problems => {
    const found: Problems = {};
    if (!values.current) found.current = t('password.currentRequired');
    if (values.new.length < MIN_PASSWORD_LENGTH) found.new = t('password.tooShort', { min: MIN_PASSWORD_LENGTH });
    else if (values.new === values.current) found.new = t('password.same');
    if (values.confirm !== values.new) found.confirm = t('password.mismatch');
    return found;
  };

  const refused = (error: unknown) => {
    if (error instanceof ApiError && error.body?.code === ErrorCode.WrongCurrentPassword)
      return setProblems({ current: t('password.wrongCurrent') });
    if (error instanceof ApiError && error.status === 429) return setGeneral(t('password.tooMany'));
    const fields = fieldErrors(error);
    if (fields.newPassword) return setProblems({ new: fields.newPassword });
    if (fields.currentPassword) return setProblems({ current: fields.currentPassword });
    setGeneral(t('password.failed', { detail: errorDetail(error) }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChanged(false);
    setGeneral(null);
    const found = check();
    setProblems(found);
    if (Object.keys(found).length) return;
    mutation.mutate(
      { currentPassword: values.current, newPassword: values.new },
      {
        onSuccess: () => {
          setValues(EMPTY);
          setChanged(true);
        },
        onError: refused,
      },
    );
  };

  return (
    <Card title={t('password.title')}>
      <form className="form" onSubmit={submit} noValidate>
        <p className="muted">{t('password.lead')}</p>
        <TextField
          label={t('password.current')}
          type="password"
          autoComplete="current-password"
          required
          {...bind('current')}
        />
        <TextField
          label={t('password.new')}
          type="password"
          autoComplete="new-password"
          required
          hint={t('password.newHint', { min: MIN_PASSWORD_LENGTH })}
          {...bind('new')}
        />
        <TextField
          label={t('password.confirm')}
          type="password"
          autoComplete="new-password"
          required
          {...bind('confirm')}
        />
        <div className="actions">
          <Button type="submit" busy={mutation.isPending}>
            {t('password.submit')}
          </Button>
        </div>
        {general && <StatusMessage tone="error">{general}</StatusMessage>}
        {changed && <StatusMessage tone="success">{t('password.changed')}</StatusMessage>}
      </form>
    </Card>
  );
}
