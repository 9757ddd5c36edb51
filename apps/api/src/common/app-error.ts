import { ErrorCode } from '@wv/contracts';

/** Each stable code maps once to its HTTP status and default sentence (docs/rest-api.md, "Conventions"). */
export const ERROR_CATALOG: Record<ErrorCode, { status: number; message: string }> = {
  ValidationFailed: { status: 400, message: 'The request is not valid' },
  MalformedJson: { status: 400, message: 'The request body is not valid JSON' },
  PayloadTooLarge: { status: 413, message: 'The request body is larger than 1 MB' },
  Unauthorized: { status: 401, message: 'Sign in to continue' },
  InvalidCredentials: { status: 401, message: 'Invalid email/phone or password' },
  // Only after the right password, so it tells nothing to a guesser (docs/security.md, "Deactivated accounts").
  AccountDeactivated: { status: 401, message: 'This account is deactivated' },
  CannotDeactivateSelf: { status: 422, message: 'You cannot deactivate your own account' },
  // 422, not 401: a wrong current password must not sign the user out of the web app.
  WrongCurrentPassword: { status: 422, message: 'The current password is not correct' },
  TokenExpired: { status: 401, message: 'Your session has expired; sign in again' },
  Forbidden: { status: 403, message: 'Your role may not do this' },
  NotFound: { status: 404, message: 'Not found' },
  RateLimited: { status: 429, message: 'Too many attempts; try again later' },
  UserConflict: { status: 409, message: 'A user with this email or phone number already exists' },
  UserNotFound: { status: 404, message: 'User not found' },
  DeviceNotFound: { status: 404, message: 'Device not found' },
  DeviceAlreadyOwned: { status: 409, message: 'This device is already assigned to a user' },
  DeviceIdTaken: { status: 409, message: 'This ESP ID is already in use' },
  MacNotFound: { status: 404, message: 'This MAC address has not been announced' },
  MacListFull: { status: 503, message: 'Too many machines are waiting for an ESP ID; try again later' },
  AttendantAlreadyAssigned: { status: 409, message: 'This device already has an attendant' },
  AttendantNotFound: { status: 404, message: 'No attendant assigned' },
  AttendantHasMachine: { status: 409, message: 'This attendant already has a machine; unassign it first' },
  AttendantOutsideTenant: {
    status: 422,
    message: 'An attendant can be given only a machine of the manager who created them',
  },
  UserDeviceNotFound: { status: 404, message: 'This user does not have this machine' },
  InvalidDeviceKey: { status: 401, message: 'Invalid device key' },
  CardAlreadyRegistered: { status: 409, message: 'Card is already registered' },
  CardNotFound: { status: 404, message: 'Card not found' },
  CardAlreadyBlocked: { status: 409, message: 'Card is already blocked' },
  CardNotBlocked: { status: 409, message: 'Card is not blocked' },
  CardReplaced: { status: 409, message: 'This card was replaced; use its replacement' },
  InsufficientFloat: { status: 422, message: 'Insufficient float balance' },
  BalanceLimitExceeded: {
    status: 422,
    message: 'This would take the balance past the largest amount it can hold (999999999999.99)',
  },
  FloatRequestNotFound: { status: 404, message: 'Float request not found' },
  FloatRequestNotPending: { status: 409, message: 'This float request is no longer pending' },
  IdempotencyKeyReused: {
    status: 422,
    message: 'This Idempotency-Key was already used with a different request',
  },
  // 503 with Retry-After (set by the exception filter): the same request may succeed unchanged later.
  ServiceUnavailable: { status: 503, message: 'The service is briefly unavailable; try again shortly' },
  IngestBacklogFull: {
    status: 503,
    message: 'Too many sales are waiting to be stored; keep this sale and send it again later',
  },
  AlarmNotFound: { status: 404, message: 'Alarm not found' },
  AlarmNotOpen: { status: 409, message: 'This alarm is not open' },
  AlarmAlreadyCleared: { status: 409, message: 'This alarm is already cleared' },
  AlarmAssigneeNotInScope: {
    status: 422,
    message: 'An alarm can be assigned only to the machine’s owner manager or its attendant',
  },
  PaymentNotFound: { status: 404, message: 'Payment not found' },
  PaymentNotUnmatched: { status: 409, message: 'This payment is not waiting to be matched to a card' },
  MobileMoneyOff: { status: 422, message: 'Mobile money is not configured on this server' },
  CardNotActive: { status: 422, message: 'This card is blocked; it cannot be topped up' },
  Internal: { status: 500, message: 'Something went wrong on our side' },
};

/** The one exception services throw; the global filter turns it into the contract's error body. */
export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly fields?: { path: string; message: string }[],
  ) {
    super(message ?? ERROR_CATALOG[code].message);
    this.status = ERROR_CATALOG[code].status;
  }
}
