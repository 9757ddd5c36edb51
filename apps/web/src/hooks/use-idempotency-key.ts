import { useCallback, useRef } from 'react';
import { ApiError, NetworkError } from '@/lib/api-client';
import { newUuid } from '@/lib/user-id';

/**
 * `Idempotency-Key` for a form whose POST moves money (docs/rest-api.md, "Conventions"): one uuid per submission
 * attempt. When an attempt got no answer (network failure or a 5xx), submitting the same body again is a retry and
 * reuses the key, so the server replays the first outcome instead of moving the money twice; a changed body, or any
 * answer the server gave, starts a new attempt with a new key.
 */
export function useIdempotencyKey() {
  const pending = useRef<{ key: string; body: string } | null>(null);

  const keyFor = useCallback((body: unknown): string => {
    const text = JSON.stringify(body);
    if (pending.current?.body !== text) pending.current = { key: newUuid(), body: text };
    return pending.current.key;
  }, []);

  /** After a call: keep the key only when the outcome is unknown and a retry must reuse it. */
  const settle = useCallback((error?: unknown) => {
    const unknownOutcome = error instanceof NetworkError || (error instanceof ApiError && error.status >= 500);
    if (!unknownOutcome) pending.current = null;
  }, []);

  return { keyFor, settle };
}
