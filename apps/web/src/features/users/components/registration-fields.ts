import type { RegisterUserRequest } from '@wv/contracts';

/** The wizard's fields: the contract's request, minus what the client adds, plus the confirmation. */
export type PersonalFields = Pick<
  RegisterUserRequest,
  'firstName' | 'lastName' | 'username' | 'email' | 'phoneNumber' | 'location'
>;
export type AccountFields = Pick<RegisterUserRequest, 'esp32Id' | 'machine_location' | 'password'> & {
  /** An interface field only (seed section 3). */
  confirmPassword: string;
};
export type RegistrationFields = PersonalFields & AccountFields;

export const EMPTY_REGISTRATION: RegistrationFields = {
  firstName: '',
  lastName: '',
  username: '',
  email: '',
  phoneNumber: '',
  location: '',
  esp32Id: '',
  machine_location: '',
  password: '',
  confirmPassword: '',
};

/** Seed section 5: passwords first, then the device; null when both hold. */
export function registrationProblem(fields: AccountFields): string | null {
  if (fields.password !== fields.confirmPassword) return 'Passwords do not match';
  if (!fields.esp32Id) return 'Please select an ESP32 ID';
  return null;
}

export function toRegisterUserRequest(userId: string, fields: RegistrationFields): RegisterUserRequest {
  const { confirmPassword: _confirm, ...request } = fields;
  return { userId, ...request };
}
