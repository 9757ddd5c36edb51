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

/** The server's sentences and the forms' own problems, as keys of the chosen language's texts. */
const KNOWN_TEXTS = {
  'User registered successfully': 'createUser.registered',
  'User already registered': 'createUser.alreadyRegistered',
  'Passwords do not match': 'createUser.passwordsDiffer',
  'Please select an ESP32 ID': 'createUser.chooseDevice',
} as const;

/** The key of a known sentence, or null for a text shown as it came (the server's own reason). */
export function registrationTextKey(text: string): (typeof KNOWN_TEXTS)[keyof typeof KNOWN_TEXTS] | null {
  return Object.hasOwn(KNOWN_TEXTS, text) ? KNOWN_TEXTS[text as keyof typeof KNOWN_TEXTS] : null;
}

export const EMPTY_REGISTRATION: RegistrationFields = EMPTY_REGISTRATION_FIELDS;

export function toRegisterUserRequest(userId: string, fields: RegistrationFields): RegisterUserRequest {
  const { confirmPassword: _confirm, ...request } = fields;
  return { userId, ...request };
}
