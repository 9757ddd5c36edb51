import { AsyncLocalStorage } from 'node:async_hooks';

/** The request id of the HTTP request being served, for every log line written while serving it. */
export const requestContext = new AsyncLocalStorage<{ requestId: string }>();
