import { ApiError, serverText } from '@/lib/api-client';

/**
 * A refused call shows 'Failed to fetch …: {error}', a call that got no answer (or an
 * unreadable one) the sentence 'An error occurred while fetching ….' sentence.
 */
export function fetchFailure(error: unknown, what: 'machine details' | 'transactions' | 'card summary'): string {
  return error instanceof ApiError
    ? `Failed to fetch ${what}: ${serverText(error)}`
    : `An error occurred while fetching ${what}.`;
}
