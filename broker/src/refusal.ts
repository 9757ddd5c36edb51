/** Refusals: every "no" the broker says carries a reason that is logged and counted once. */
import type { RefusalReason } from './broker.types.js';

/** MQTT 3.1.1 CONNACK return codes (section 3.2.2.3) that Aedes lets an authenticator choose. */
export const ConnackCode = {
  IdentifierRejected: 2,
  ServerUnavailable: 3,
  BadUsernameOrPassword: 4,
  NotAuthorized: 5,
} as const;

/** Tagged so the broker's error listener can tell its own refusals (already counted) from Aedes' ones. */
export class RefusalError extends Error {
  constructor(
    readonly reason: RefusalReason,
    message: string,
    /** Read by Aedes' authenticate flow as the CONNACK return code. */
    readonly returnCode: number = ConnackCode.NotAuthorized,
  ) {
    super(message);
    this.name = 'RefusalError';
  }
}

export const REFUSAL_REASONS: readonly RefusalReason[] = [
  'bad-credentials',
  'identifier-rejected',
  'auth-unavailable',
  'keepalive-out-of-range',
  'protocol-error',
  'connect-timeout',
  'will-denied',
  'publish-denied',
  'subscribe-denied',
  'payload-too-large',
  'topic-too-deep',
  'persist-failed',
  'shutting-down',
  'connection-rate',
  'auth-failure-limit',
  'revoked',
  'provisioning-limit',
  'superseded',
];

/**
 * Maps the errors Aedes raises itself (its own protocol checks) to a refusal reason. Socket resets,
 * keepalive timeouts and the like are ordinary disconnects, not refusals: they map to null.
 */
export function classifyAedesError(error: Error): RefusalReason | null {
  const message = error.message;
  if (message === 'topic has too many levels') return 'topic-too-deep';
  if (message === 'keep alive limit exceeded') return 'keepalive-out-of-range';
  if (message === 'connect did not arrive in time') return 'connect-timeout';
  if (/not allowed in PUBLISH|empty topic/.test(message)) return 'publish-denied';
  if (/only allowed in SUBSCRIBE/.test(message)) return 'subscribe-denied';
  if (/unacceptable protocol version|Invalid protocol|Client queue limit reached|maxInflightInbound/.test(message)) {
    return 'protocol-error';
  }
  return null;
}
