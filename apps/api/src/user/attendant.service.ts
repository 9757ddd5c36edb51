import { Injectable, Logger } from '@nestjs/common';
import { ErrorCode, type AttendantInfo, type AttendantRow, type RegisterAttendantCommand } from '@wv/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { deviceChange, userCreated, userRemoved } from './user-audit-entries.js';
import { AuditTrail } from '../audit/audit-trail.js';
import { AppError } from '../common/app-error.js';
import type { Actor } from '../common/actor.js';
import { DomainEvents } from '../events/domain-events.js';
import { isUniqueViolation } from '../common/pg-errors.js';
import { hashPassword } from './password-hasher.js';
import { DeviceDirectory } from '../device/device-directory.js';
import {
  assertNoConflicts,
  isReplayOf,
  lockUserId,
  uniformUserConflict,
  type RegistrationFields,
} from './registration.js';
import type { Created } from './user.service.js';
import { UserRepository } from './user.repository.js';

/** Attendants: created by a manager for one of the manager's devices, one per device. */
@Injectable()
export class AttendantService {
  private readonly logger = new Logger(AttendantService.name);
  private readonly removalHooks: ((attendantId: string, m: EntityManager) => Promise<void>)[] = [];

  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UserRepository,
    private readonly devices: DeviceDirectory,
    private readonly events: DomainEvents,
    private readonly audit: AuditTrail,
  ) {}

  /** Lets other domains (float requests) act in the same transaction as a removal. */
  onRemoval(hook: (attendantId: string, m: EntityManager) => Promise<void>): void {
    this.removalHooks.push(hook);
  }

  async managerDeviceIds(actor: Actor): Promise<string[]> {
    return (await this.devices.listVisible(actor)).map((d) => d.espId);
  }

  async register(actor: Actor, input: RegisterAttendantCommand): Promise<Created> {
    const fields: RegistrationFields = {
      ...input,
      companyName: input.companyName ?? null,
      email: input.email ?? null,
      role: 'attendant',
      managerId: actor.userId,
    };
    const passwordHash = await hashPassword(input.password);
    try {
      return await this.dataSource.transaction(async (m) => {
        await lockUserId(m, input.userId);
        const existing = await this.users.findById(input.userId, m);
        const device = await this.devices.findVisible(actor, input.esp32Id, m);
        if (!device) throw new AppError(ErrorCode.DeviceNotFound);
        const locked = (await this.devices.findForUpdate(device.espId, m))!;
        if (await isReplayOf(existing, fields)) {
          if (locked.attendantId !== input.userId)
            throw new AppError(ErrorCode.UserConflict, 'A user with this userId already exists with other details');
          return { created: false, message: 'Attendant already registered' };
        }
        if (locked.attendantId) throw new AppError(ErrorCode.AttendantAlreadyAssigned);
        await assertNoConflicts(this.users, fields, m);
        await this.users.insert(
          {
            id: input.userId,
            role: 'attendant',
            firstName: input.firstName,
            lastName: input.lastName,
            username: input.username,
            companyName: fields.companyName,
            email: fields.email,
            phoneNumber: input.phoneNumber,
            location: input.location,
            passwordHash,
            managerId: actor.userId,
          },
          m,
        );
        // docs/rest-api.md, "Details": the registration's machine_location updates the device's location.
        await this.devices.update(device.espId, { attendantId: input.userId, location: input.machine_location }, m);
        await this.audit.record(
          m,
          userCreated(actor, fields),
          deviceChange(actor, 'device.attendant-assigned', locked, {
            attendantId: input.userId,
            location: input.machine_location,
          }),
        );
        return { created: true, message: 'Attendant registered successfully' };
      });
    } catch (error) {
      const clash = error instanceof AppError && error.code === ErrorCode.UserConflict;
      if (clash || isUniqueViolation(error)) throw uniformUserConflict();
      throw error;
    }
  }

  async list(actor: Actor): Promise<AttendantRow[]> {
    const attendants = await this.users.listAttendants(actor);
    const devices = await this.devices.listVisible(actor);
    return attendants.map((a) => ({
      userId: a.id,
      firstName: a.firstName,
      lastName: a.lastName,
      phoneNumber: a.phoneNumber,
      esp32Id: devices.find((d) => d.attendantId === a.id)?.espId ?? null,
    }));
  }

  /** Removal keeps history: the user row stays (soft-deleted), sessions end, the device is freed. */
  async remove(actor: Actor, userId: string): Promise<{ message: string }> {
    await this.dataSource.transaction(async (m) => {
      const attendant = await this.users.findAttendant(actor, userId, m);
      if (!attendant) throw new AppError(ErrorCode.AttendantNotFound, 'Attendant not found');
      const assigned = await this.devices.listVisible({ userId, role: 'attendant' });
      await this.users.markDeleted(userId, m);
      await this.devices.clearAttendant(userId, m);
      await this.audit.record(
        m,
        userRemoved(actor, attendant),
        ...assigned.map((d) => deviceChange(actor, 'device.attendant-removed', d, { attendantId: null })),
      );
      for (const hook of this.removalHooks) await hook(userId, m);
    });
    this.logger.log(`Attendant ${userId} removed by ${actor.userId}`);
    this.events.emit('user.removed', { userId });
    return { message: 'Attendant removed successfully' };
  }

  async info(actor: Actor, esp32Id: string): Promise<AttendantInfo> {
    const device = await this.devices.findVisible(actor, esp32Id);
    if (!device) throw new AppError(ErrorCode.DeviceNotFound);
    const attendant = device.attendantId ? await this.users.findActiveById(device.attendantId) : null;
    if (!attendant) throw new AppError(ErrorCode.AttendantNotFound);
    return { firstName: attendant.firstName, lastName: attendant.lastName };
  }
}
