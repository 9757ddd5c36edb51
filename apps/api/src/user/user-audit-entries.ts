import type { Actor } from '../common/actor.js';
import type { DeviceEntity } from '../device/device.entity.js';
import type { RegistrationFields } from './registration.js';
import type { UserEntity } from './user.entity.js';
import type { AuditEntry } from '../audit/audit-trail.js';

type DeviceState = Pick<DeviceEntity, 'espId' | 'ownerId' | 'attendantId' | 'location'>;

/** A new user as the audit trail keeps it: never the password (nor its hash). */
export function userCreated(actor: Actor, f: RegistrationFields): AuditEntry {
  const { userId, role, firstName, lastName, username, email, phoneNumber, location, managerId } = f;
  return {
    actorId: actor.userId,
    action: 'user.created',
    entity: 'user',
    entityId: userId,
    before: null,
    after: { userId, role, firstName, lastName, username, email, phoneNumber, location, managerId },
  };
}

/** A removal keeps the user row (history); the trail shows who removed whom, and when. */
export function userRemoved(actor: Actor, user: UserEntity): AuditEntry {
  const { id, role, firstName, lastName, username, email, phoneNumber, location, managerId } = user;
  const before = { userId: id, role, firstName, lastName, username, email, phoneNumber, location, managerId };
  return {
    actorId: actor.userId,
    action: 'user.removed',
    entity: 'user',
    entityId: id,
    before: { ...before, deletedAt: null },
    after: { ...before, deletedAt: new Date().toISOString() },
  };
}

/** A change of a device's owner, attendant or location: before holds the changed fields' old values. */
export function deviceChange(
  actor: Actor,
  action: string,
  before: DeviceState,
  changes: Partial<Omit<DeviceState, 'espId'>>,
): AuditEntry {
  const keys = Object.keys(changes) as (keyof typeof changes)[];
  return {
    actorId: actor.userId,
    action,
    entity: 'device',
    entityId: before.espId,
    before: Object.fromEntries(keys.map((k) => [k, before[k]])),
    after: changes,
  };
}

/** A deactivation or reactivation: the trail shows who did it, to whom, and when. */
export function userActivation(actor: Actor, user: UserEntity, active: boolean): AuditEntry {
  return {
    actorId: actor.userId,
    action: active ? 'user.reactivated' : 'user.deactivated',
    entity: 'user',
    entityId: user.id,
    before: { userId: user.id, role: user.role, username: user.username, active: !active },
    after: { userId: user.id, role: user.role, username: user.username, active },
  };
}
