import type { RegisterAttendantRequest } from '@wv/contracts';
import { EMPTY_REGISTRATION_FIELDS } from '@/lib/registration';

type Request = Required<RegisterAttendantRequest>;

/** Step 1; `username` is shown as Company Name, `email` is optional (empty is sent as absent). */
export type AttendantPersonalFields = Pick<
  Request,
  'firstName' | 'lastName' | 'username' | 'phoneNumber' | 'location'
> & {
  email: string;
};
export type AttendantAccountFields = Pick<Request, 'esp32Id' | 'machine_location' | 'password'> & {
  confirmPassword: string;
};
export type AttendantFields = AttendantPersonalFields & AttendantAccountFields;

export const EMPTY_ATTENDANT: AttendantFields = EMPTY_REGISTRATION_FIELDS;

/** Seed section 4: Next works only when first name, last name, company name and phone are filled. */
export function personalProblem(fields: AttendantPersonalFields): string | null {
  const filled = [fields.firstName, fields.lastName, fields.username, fields.phoneNumber].every((v) => v.trim());
  return filled ? null : 'Please fill in all required fields.';
}

export function toRegisterAttendantRequest(userId: string, fields: AttendantFields): RegisterAttendantRequest {
  const { confirmPassword: _confirm, email, ...rest } = fields;
  return { userId, ...rest, ...(email.trim() ? { email: email.trim() } : {}) };
}
