import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import type { Actor } from './actor.js';

/**
 * The tenant rule for devices, in one place (docs/rest-api.md, "Roles and scope"): an admin sees every device, a
 * manager the devices they own, an attendant the one device assigned to them. Every repository read
 * that returns devices or data hanging off a device goes through this.
 */
export function scopeDevices<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  actor: Actor,
  deviceAlias: string,
): SelectQueryBuilder<T> {
  switch (actor.role) {
    case 'admin':
      return qb;
    case 'manager':
      return qb.andWhere(`${deviceAlias}.owner_id = :scopeUserId`, { scopeUserId: actor.userId });
    case 'attendant':
      return qb.andWhere(`${deviceAlias}.attendant_id = :scopeUserId`, { scopeUserId: actor.userId });
  }
}

/** The tenant rule for attendants: an admin sees all, a manager those they created, an attendant themself. */
export function scopeAttendants<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  actor: Actor,
  userAlias: string,
): SelectQueryBuilder<T> {
  qb.andWhere(`${userAlias}.role = 'attendant'`);
  switch (actor.role) {
    case 'admin':
      return qb;
    case 'manager':
      return qb.andWhere(`${userAlias}.manager_id = :scopeUserId`, { scopeUserId: actor.userId });
    case 'attendant':
      return qb.andWhere(`${userAlias}.id = :scopeUserId`, { scopeUserId: actor.userId });
  }
}
