import { useState, type FormEvent } from 'react';
import { ErrorCode } from '@wv/contracts';
import { ApiError } from '@/lib/api-client';
import { i18n, useTranslation } from '@/lib/i18n';
import { sessionHasEnded, type Session } from '@/lib/session';
import { Button } from '@/components/ui/button';
import { StatusMessage } from '@/components/ui/status-message';
import { TextField } from '@/components/ui/text-field';
import { useLogin } from '../api/login';

interface LoginFormProps {
  onSuccess: (session: Session) => void;
  /** The text shown when the server refuses; the main login adds the server's sentence, /a does not. */
  failureText: (error: unknown) => string;
}

/**
 * 'Email or Phone Number' and 'Password', both required (docs/web-app.md, "Screens"). Reached because the
 * session ran out, it says so first.
 */
export function LoginForm({ onSuccess, failureText }: LoginFormProps) {
  const { t } = useTranslation();
  // Read once: the notice belongs to this visit of the form.
  const [ended] = useState(sessionHasEnded);
  const [identifier, setIdentifier] = useState('');
  const [password, setPassword] = useState('');
  const mutation = useLogin({ onSuccess });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    mutation.mutate({ identifier: identifier.trim(), password });
  };

  return (
    <form className="form" onSubmit={submit}>
      {ended && !mutation.isError && <StatusMessage tone="info">{t('login.sessionEnded')}</StatusMessage>}
      <TextField
        label={t('login.identifier')}
        name="identifier"
        autoComplete="username"
        required
        value={identifier}
        onChange={(event) => setIdentifier(event.target.value)}
      />
      <TextField
        label={t('login.password')}
        name="password"
        type="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(event) => setPassword(event.target.value)}
      />
      <Button type="submit" busy={mutation.isPending} className="btn-block">
        {t('login.submit')}
      </Button>
      {mutation.isError && <StatusMessage tone="error">{failureText(mutation.error)}</StatusMessage>}
    </form>
  );
}

/** The server's sentences this form knows, in the chosen language; others are shown as the server wrote them. */
const KNOWN_REFUSALS: Partial<Record<string, 'login.invalid' | 'login.deactivated' | 'login.tooMany'>> = {
  [ErrorCode.InvalidCredentials]: 'login.invalid',
  [ErrorCode.AccountDeactivated]: 'login.deactivated',
  [ErrorCode.RateLimited]: 'login.tooMany',
};

/** 'Login failed: ' + the server's text; no answer at all: 'Error logging in'. */
export function mainLoginFailureText(error: unknown): string {
  if (!(error instanceof ApiError)) return i18n.t('login.unreachable');
  const known = KNOWN_REFUSALS[error.body?.code ?? ''];
  return i18n.t('login.failedWith', { detail: known ? i18n.t(known) : error.message });
}

/** /a's text: 'Login failed', without the server's reason (docs/web-app.md, "Screens"). */
export const plainLoginFailureText = (): string => i18n.t('login.failed');
