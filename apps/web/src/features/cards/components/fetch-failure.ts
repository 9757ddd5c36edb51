import { ApiError, serverText } from '@/lib/api-client';

/**
 * Seed section 8: a refused call shows 'Failed to fetch …: {error}', a call that got no answer (or an
 * unreadable one) the seed's 'An error occurred while fetching ….' sentence.
 */
export function fetchFailure(error: unknown, what: 'machine details' | 'transactions' | 'card summary'): string {
  return error instanceof ApiError
    ? `Failed to fetch ${what}: ${serverText(error)}`
    : `An error occurred while fetching ${what}.`;
}
