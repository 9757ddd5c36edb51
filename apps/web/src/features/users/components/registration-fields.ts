import type { RegisterUserRequest } from '@wv/contracts';
import { EMPTY_REGISTRATION_FIELDS } from '@/lib/registration';

/** The wizard's fields: the contract's request, minus what the client adds, plus the confirmation. */
export type PersonalFields = Pick<
  RegisterUserRequest,
  'firstName' | 'lastName' | 'username' | 'email' | 'phoneNumber' | 'location'
>;
export type AccountFields = Pick<RegisterUserRequest, 'esp32Id' | 'machine_location' | 'password'> & {
  /** A form field only, never sent. */
  confirmPassword: string;
};
export type RegistrationFields = PersonalFields & AccountFields;

export const EMPTY_REGISTRATION: RegistrationFields = EMPTY_REGISTRATION_FIELDS;

export function toRegisterUserRequest(userId: string, fields: RegistrationFields): RegisterUserRequest {
  const { confirmPassword: _confirm, ...request } = fields;
  return { userId, ...request };
}
