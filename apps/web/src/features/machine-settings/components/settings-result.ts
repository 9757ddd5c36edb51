import { ApiError, serverText } from '@/lib/api-client';

export interface Result {
  tone: 'success' | 'error';
  text: string;
}

/** The server's message when it answered, else the screen's fixed text with the detail. */
export function failure(error: unknown, fallback: (detail: string) => string): Result {
  if (error instanceof ApiError) return { tone: 'error', text: serverText(error) ?? error.message };
  return { tone: 'error', text: fallback(error instanceof Error ? error.message : String(error)) };
}

/**
 * A refused save: when the server's complaints landed beside their fields (`placed`), the line under the form
 * only points at them, so that the server's field names never reach the screen; else as `failure`.
 */
export function refusal(
  error: unknown,
  placed: readonly string[],
  checkFields: string,
  fallback: (detail: string) => string,
): Result {
  return placed.length ? { tone: 'error', text: checkFields } : failure(error, fallback);
}
