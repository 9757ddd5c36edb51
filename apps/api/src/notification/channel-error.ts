/**
 * A channel that did not take a message. `permanent` when trying again cannot help (a mailbox the
 * server refuses with a 5xx reply, a number the SMS API calls invalid); otherwise the message waits a
 * backoff and is tried again.
 */
export class ChannelError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
  }
}
