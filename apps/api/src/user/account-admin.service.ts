import { Injectable, Logger } from '@nestjs/common';
import { ErrorCode, type UserDeviceParam } from '@wv/contracts';
import { DataSource } from 'typeorm';
import { AuditTrail } from '../audit/audit-trail.js';
import { AppError } from '../common/app-error.js';
import type { Actor } from '../common/actor.js';
import { DeviceDirectory } from '../device/device-directory.js';
import { DomainEvents } from '../events/domain-events.js';
import { lockUserId } from './registration.js';
import { deviceChange, userActivation } from './user-audit-entries.js';
import { UserRepository } from './user.repository.js';

/**
 * The admin's actions on existing accounts (docs/rest-api.md, "Accounts and sessions"): taking a machine
 * from a user, and deactivating or reactivating an account. History is always kept.
 */
@Injectable()
export class AccountAdminService {
  private readonly logger = new Logger(AccountAdminService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UserRepository,
    private readonly devices: DeviceDirectory,
    private readonly audit: AuditTrail,
    private readonly events: DomainEvents,
  ) {}

  /**
   * The machine becomes unowned (from a manager or admin) or without an attendant (from an attendant). An
   * owner's machine also loses its attendant: attendants work only at their own manager's machines.
   * Sales and history stay with the machine.
   */
  async unassignDevice(actor: Actor, { userId, esp32Id }: UserDeviceParam): Promise<{ message: string }> {
    const dropped = await this.dataSource.transaction(async (m) => {
      const user = await this.users.findById(userId, m);
      if (!user || user.deletedAt) throw new AppError(ErrorCode.UserNotFound);
      const device = await this.devices.findForUpdate(esp32Id, m);
      const holds = user.role === 'attendant' ? device?.attendantId === userId : device?.ownerId === userId;
      if (!device || !holds) throw new AppError(ErrorCode.UserDeviceNotFound);
      if (user.role === 'attendant') {
        await this.devices.update(esp32Id, { attendantId: null }, m);
        await this.audit.record(m, deviceChange(actor, 'device.attendant-removed', device, { attendantId: null }));
        return [userId];
      }
      const changes = device.attendantId ? { ownerId: null, attendantId: null } : { ownerId: null };
      await this.devices.update(esp32Id, changes, m);
      await this.audit.record(m, deviceChange(actor, 'device.owner-removed', device, changes));
      return device.attendantId ? [userId, device.attendantId] : [userId];
    });
    this.events.emit('user.device-unassigned', { userIds: dropped, espId: esp32Id });
    this.logger.log(`Machine ${esp32Id} taken from ${userId} by ${actor.userId}`);
    return { message: 'Machine unassigned successfully' };
  }

  /** The account cannot sign in; its tokens and live connections end at once. Repeating it changes nothing. */
  async deactivate(actor: Actor, userId: string): Promise<{ message: string }> {
    if (userId === actor.userId) throw new AppError(ErrorCode.CannotDeactivateSelf);
    const changed = await this.setActive(actor, userId, false);
    if (changed) {
      this.events.emit('user.deactivated', { userId });
      this.logger.log(`User ${userId} deactivated by ${actor.userId}`);
    }
    return { message: 'User deactivated successfully' };
  }

  /** The account may sign in again; tokens issued before its deactivation stay dead. */
  async reactivate(actor: Actor, userId: string): Promise<{ message: string }> {
    if (await this.setActive(actor, userId, true)) this.logger.log(`User ${userId} reactivated by ${actor.userId}`);
    return { message: 'User reactivated successfully' };
  }

  /** True when the account changed; false when it already was so. */
  private setActive(actor: Actor, userId: string, active: boolean): Promise<boolean> {
    return this.dataSource.transaction(async (m) => {
      await lockUserId(m, userId);
      const user = await this.users.findById(userId, m);
      if (!user || user.deletedAt) throw new AppError(ErrorCode.UserNotFound);
      if ((user.deactivatedAt === null) === active) return false;
      await this.users.setDeactivated(userId, !active, m);
      await this.audit.record(m, userActivation(actor, user, active));
      return true;
    });
  }
}
