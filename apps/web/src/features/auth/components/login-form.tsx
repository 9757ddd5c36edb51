import { useState, type FormEvent } from 'react';
import { ApiError } from '@/lib/api-client';
import type { Session } from '@/lib/session';
import { Button } from '@/components/ui/button';
import { StatusMessage } from '@/components/ui/status-message';
import { TextField } from '@/components/ui/text-field';
import { useLogin } from '../api/login';

interface LoginFormProps {
  onSuccess: (session: Session) => void;
  /** The text shown when the server refuses; the main login adds the server's sentence, /a does not. */
  failureText: (error: unknown) => string;
}

/** 'Email or Phone Number' and 'Password', both required (docs/web-app.md, "Screens"). */
export function LoginForm({ onSuccess, failureText }: LoginFormProps) {
  const [identifier, setIdentifier] = useState('');
  const [password, setPassword] = useState('');
  const mutation = useLogin({ onSuccess });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    mutation.mutate({ identifier: identifier.trim(), password });
  };

  return (
    <form className="form" onSubmit={submit}>
      <TextField
        label="Email or Phone Number"
        name="identifier"
        autoComplete="username"
        required
        value={identifier}
        onChange={(event) => setIdentifier(event.target.value)}
      />
      <TextField
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(event) => setPassword(event.target.value)}
      />
      <Button type="submit" busy={mutation.isPending} className="btn-block">
        Log In
      </Button>
      {mutation.isError && <StatusMessage tone="error">{failureText(mutation.error)}</StatusMessage>}
    </form>
  );
}

/** 'Login failed: ' + the server's text; no answer at all: 'Error logging in'. */
export function mainLoginFailureText(error: unknown): string {
  return error instanceof ApiError ? `Login failed: ${error.message}` : 'Error logging in';
}
