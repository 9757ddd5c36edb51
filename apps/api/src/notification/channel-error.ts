/**
 * A channel that did not take a message, or may have. `permanent` when trying again cannot help (a
 * mailbox the server refuses with a 5xx reply, a number the SMS API calls invalid); otherwise the message
 * waits a backoff and is tried again. `unknown` when the request may have reached the server and only its
 * answer was lost (a timeout or a connection cut after sending): the message is given up, never sent twice
 * (docs/alarms.md, "What is guaranteed when a process dies").
 */
export class ChannelError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    readonly unknown = false,
  ) {
    super(message);
  }
}

/** Network errors that mean the request never left: nothing can have been delivered. */
const NOT_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** Whether a failed HTTP call (fetch) may have been received by the server: any error but a connection never made. */
export const mayHaveArrived = (code: string | undefined): boolean => !code || !NOT_SENT.has(code);
