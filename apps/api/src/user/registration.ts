import type { EntityManager } from 'typeorm';
import { ErrorCode, type Role } from '@wv/contracts';
import { AppError } from '../common/app-error.js';
import { verifyPassword } from './password-hasher.js';
import type { UserEntity } from './user.entity.js';
import type { UserRepository } from './user.repository.js';

export interface RegistrationFields {
  userId: string;
  role: Role;
  firstName: string;
  lastName: string;
  username: string;
  /** Attendants only: the company they work for (not unique). */
  companyName: string | null;
  email: string | null;
  phoneNumber: string;
  location: string;
  password: string;
  managerId: string | null;
}

/**
 * docs/rest-api.md, "Details": registering the same `userId` with the same fields again answers 200
 * and changes nothing; with other fields it is 409. Returns true for such a replay.
 */
export async function isReplayOf(existing: UserEntity | null, fields: RegistrationFields): Promise<boolean> {
  if (!existing) return false;
  const same =
    existing.deletedAt === null &&
    existing.role === fields.role &&
    existing.firstName === fields.firstName &&
    existing.lastName === fields.lastName &&
    existing.username === fields.username &&
    (existing.companyName ?? null) === fields.companyName &&
    (existing.email ?? null) === fields.email &&
    existing.phoneNumber === fields.phoneNumber &&
    existing.location === fields.location &&
    existing.managerId === fields.managerId &&
    (await verifyPassword(existing.passwordHash, fields.password));
  if (!same) throw new AppError(ErrorCode.UserConflict, 'A user with this userId already exists with other details');
  return true;
}

/**
 * 409 naming what is taken: the email, phone number or username (case-insensitive) of another active
 * user. Precise for admins; attendant registrations by a manager answer every clash with
 * uniformUserConflict instead.
 */
export async function assertNoConflicts(
  users: UserRepository,
  fields: RegistrationFields,
  m: EntityManager,
): Promise<void> {
  const clashes = await users.findConflicts({ ...fields, id: fields.userId }, m);
  if (clashes.length === 0) return;
  const taken = new Set<string>();
  for (const u of clashes) {
    if (fields.email && u.email?.toLowerCase() === fields.email.toLowerCase()) taken.add('email');
    if (u.phoneNumber === fields.phoneNumber) taken.add('phone number');
    if (u.username.toLowerCase() === fields.username.toLowerCase()) taken.add('username');
  }
  throw new AppError(ErrorCode.UserConflict, `This ${[...taken].join(', ')} is already registered`);
}

/**
 * The one answer a manager gets for any clash of an attendant registration: a `userId`, email, phone
 * number or username already used by any user, theirs or another tenant's. The uniqueness rules stay,
 * so a clash must be refused, but the answer names neither the field nor whose account holds it; with
 * one sentence for every case a manager cannot tell another tenant's user id from an email, a phone
 * number or a username (docs/security.md). Admins, who may see every user, keep the precise answers.
 */
export function uniformUserConflict(): AppError {
  return new AppError(
    ErrorCode.UserConflict,
    'These details cannot be used for a new account: an account with some of them already exists',
  );
}

/** Serialises concurrent registrations of one userId inside the caller's transaction. */
export async function lockUserId(m: EntityManager, userId: string): Promise<void> {
  await m.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [userId]);
}
