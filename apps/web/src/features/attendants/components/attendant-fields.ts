import type { RegisterAttendantRequest } from '@wv/contracts';
import { EMPTY_REGISTRATION_FIELDS } from '@/lib/registration';

type Request = Required<RegisterAttendantRequest>;

/**
 * Step 1. The username is the attendant's own (unique); the company name is stored apart from it, so
 * that several attendants may share one. `email` is optional (empty is sent as absent).
 */
export type AttendantPersonalFields = Pick<
  Request,
  'firstName' | 'lastName' | 'username' | 'phoneNumber' | 'location'
> & {
  companyName: string;
  email: string;
};
export type AttendantAccountFields = Pick<Request, 'esp32Id' | 'machine_location' | 'password'> & {
  confirmPassword: string;
};
export type AttendantFields = AttendantPersonalFields & AttendantAccountFields;

export const EMPTY_ATTENDANT: AttendantFields = { ...EMPTY_REGISTRATION_FIELDS, companyName: '' };

/** The fields of step 1: a refused one sends the wizard back there. */
export const PERSONAL_FIELDS: readonly (keyof AttendantPersonalFields)[] = [
  'firstName',
  'lastName',
  'username',
  'companyName',
  'email',
  'phoneNumber',
  'location',
];

/** Next works only when first name, last name, username, company name and phone are filled. */
export function personalComplete(fields: AttendantPersonalFields): boolean {
  const required = [fields.firstName, fields.lastName, fields.username, fields.companyName, fields.phoneNumber];
  return required.every((v) => v.trim());
}

export function toRegisterAttendantRequest(userId: string, fields: AttendantFields): RegisterAttendantRequest {
  const { confirmPassword: _confirm, email, companyName, ...rest } = fields;
  return { userId, ...rest, companyName: companyName.trim(), ...(email.trim() ? { email: email.trim() } : {}) };
}
