import { randomUUID } from 'node:crypto';
import { DEMO_PASSWORD } from './demo-accounts.js';

/** Calls the demo's own API as a person would (JSON in and out, an Idempotency-Key on every POST). */
export async function demoCall<T = unknown>(
  baseUrl: string,
  method: string,
  path: string,
  token?: string,
  body?: unknown,
): Promise<T> {
  const res = await fetch(`${baseUrl}/api${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(method === 'POST' ? { 'idempotency-key': randomUUID() } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`demo ${method} ${path}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Signs a demo account in with the demo password; answers its token. */
export async function demoLogin(baseUrl: string, email: string): Promise<string> {
  const { token } = await demoCall<{ token: string }>(baseUrl, 'POST', '/login', undefined, {
    identifier: email,
    password: DEMO_PASSWORD,
  });
  return token;
}
