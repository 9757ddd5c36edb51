import { Injectable } from '@nestjs/common';
import {
  ErrorCode,
  type AddUserDeviceRequest,
  type AdminUserRow,
  type Esp32IdRow,
  type RegisterUserCommand,
  type UserInfo,
  type UserLanguage,
} from '@wv/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { DomainEvents } from '../events/domain-events.js';
import type { UserEntity } from './user.entity.js';
import { deviceChange, userCreated } from './user-audit-entries.js';
import { AuditTrail } from '../audit/audit-trail.js';
import { AppError } from '../common/app-error.js';
import type { Actor } from '../common/actor.js';
import { isUniqueViolation } from '../common/pg-errors.js';
import { hashPassword } from './password-hasher.js';
import { DeviceDirectory } from '../device/device-directory.js';
import { assertNoConflicts, isReplayOf, lockUserId, type RegistrationFields } from './registration.js';
import { UserRepository } from './user.repository.js';

export type Created = { created: boolean; message: string };

@Injectable()
export class UserService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UserRepository,
    private readonly devices: DeviceDirectory,
    private readonly audit: AuditTrail,
    private readonly events: DomainEvents,
  ) {}

  async info(actor: Actor): Promise<UserInfo> {
    const user = await this.users.findActiveById(actor.userId);
    if (!user) throw new AppError(ErrorCode.UserNotFound);
    const { firstName, lastName, username, email, phoneNumber, location, language } = user;
    return { firstName, lastName, username, email, phoneNumber, location, language };
  }

  /** Any signed-in user sets their own language (docs/alarms.md, "Languages"). */
  async setLanguage(actor: Actor, language: UserLanguage): Promise<{ language: UserLanguage }> {
    await this.users.setLanguage(actor.userId, language);
    return { language };
  }

  async esp32Ids(actor: Actor): Promise<Esp32IdRow[]> {
    const devices = await this.devices.listVisible(actor);
    return devices.map((d) => ({ esp32Id: d.espId, machine_location: d.location }));
  }

  async listAll(): Promise<AdminUserRow[]> {
    const users = await this.users.listAll();
    const devices = await this.devices.listVisible({ userId: '', role: 'admin' });
    return users.map((u) => ({
      userId: u.id,
      firstName: u.firstName,
      lastName: u.lastName,
      username: u.username,
      email: u.email,
      phoneNumber: u.phoneNumber,
      location: u.location,
      role: u.role,
      active: u.deactivatedAt === null,
      managerId: u.managerId,
      devices: devices
        .filter((d) => (u.role === 'attendant' ? d.attendantId === u.id : d.ownerId === u.id))
        .map((d) => ({ esp32Id: d.espId, machine_location: d.location })),
    }));
  }

  /** POST /admin/register-user: a manager (or admin) who owns the chosen device. */
  async register(actor: Actor, input: RegisterUserCommand): Promise<Created> {
    const fields: RegistrationFields = {
      ...input,
      companyName: null,
      role: input.role ?? 'manager',
      managerId: null,
    };
    const passwordHash = await hashPassword(input.password);
    return this.withUniqueGuard(() =>
      this.dataSource.transaction(async (m) => {
        await lockUserId(m, input.userId);
        const existing = await this.users.findById(input.userId, m);
        if (await isReplayOf(existing, fields)) {
          const device = await this.devices.findForUpdate(input.esp32Id, m);
          if (device?.ownerId !== input.userId)
            throw new AppError(ErrorCode.UserConflict, 'A user with this userId already exists with other details');
          return { created: false, message: 'User already registered' };
        }
        const device = await this.devices.findForUpdate(input.esp32Id, m);
        if (!device) throw new AppError(ErrorCode.DeviceNotFound);
        if (device.ownerId) throw new AppError(ErrorCode.DeviceAlreadyOwned);
        await assertNoConflicts(this.users, fields, m);
        await this.users.insert(
          {
            id: input.userId,
            role: fields.role,
            firstName: input.firstName,
            lastName: input.lastName,
            username: input.username,
            companyName: null,
            email: input.email,
            phoneNumber: input.phoneNumber,
            location: input.location,
            passwordHash,
            managerId: null,
          },
          m,
        );
        await this.devices.update(input.esp32Id, { ownerId: input.userId, location: input.machine_location }, m);
        await this.audit.record(
          m,
          userCreated(actor, fields),
          deviceChange(actor, 'device.owner-assigned', device, {
            ownerId: input.userId,
            location: input.machine_location,
          }),
        );
        return { created: true, message: 'User registered successfully' };
      }),
    );
  }

  /**
   * POST /add/user/devices: an admin gives any user a device (an attendant their one machine, one of
   * their manager's); a manager claims an unowned one.
   */
  async addDevice(actor: Actor, input: AddUserDeviceRequest): Promise<{ message: string }> {
    if (actor.role === 'manager' && input.userId !== actor.userId) {
      throw new AppError(ErrorCode.Forbidden, 'A manager may add devices only to their own account');
    }
    await this.dataSource.transaction(async (m) => {
      const user = await this.users.findById(input.userId, m);
      if (!user || user.deletedAt) throw new AppError(ErrorCode.UserNotFound);
      if (user.role === 'attendant') {
        if (actor.role !== 'admin')
          throw new AppError(ErrorCode.ValidationFailed, 'Attendants are assigned to a device by their manager');
        return this.assignAttendant(actor, user, input, m);
      }
      const device = await this.devices.findForUpdate(input.esp32Id, m);
      if (!device) throw new AppError(ErrorCode.DeviceNotFound);
      // A manager may not learn which device IDs another tenant holds: for them a device owned by
      // someone else answers as one that does not exist. Admins see every device, so theirs is precise.
      if (device.ownerId && actor.role === 'manager' && device.ownerId !== actor.userId)
        throw new AppError(ErrorCode.DeviceNotFound);
      if (device.ownerId) throw new AppError(ErrorCode.DeviceAlreadyOwned);
      await this.devices.update(input.esp32Id, { ownerId: input.userId, location: input.machine_location }, m);
      await this.audit.record(
        m,
        deviceChange(actor, 'device.owner-assigned', device, {
          ownerId: input.userId,
          location: input.machine_location,
        }),
      );
    });
    this.events.emit('user.device-assigned', { userId: input.userId, espId: input.esp32Id });
    return { message: 'Device added successfully' };
  }

  /**
   * An attendant's one machine (docs/rest-api.md, "Accounts and sessions"): a machine of the manager who
   * created them, with no other attendant (one per device), while they have none.
   */
  private async assignAttendant(
    actor: Actor,
    attendant: UserEntity,
    input: AddUserDeviceRequest,
    m: EntityManager,
  ): Promise<void> {
    await lockUserId(m, attendant.id);
    const device = await this.devices.findForUpdate(input.esp32Id, m);
    if (!device) throw new AppError(ErrorCode.DeviceNotFound);
    if (device.attendantId === attendant.id) throw new AppError(ErrorCode.AttendantHasMachine);
    if (device.ownerId === null || device.ownerId !== attendant.managerId)
      throw new AppError(ErrorCode.AttendantOutsideTenant);
    if (device.attendantId) throw new AppError(ErrorCode.AttendantAlreadyAssigned);
    const current = await this.devices.listVisible({ userId: attendant.id, role: 'attendant' });
    if (current.length > 0) throw new AppError(ErrorCode.AttendantHasMachine);
    await this.devices.update(device.espId, { attendantId: attendant.id, location: input.machine_location }, m);
    await this.audit.record(
      m,
      deviceChange(actor, 'device.attendant-assigned', device, {
        attendantId: attendant.id,
        location: input.machine_location,
      }),
    );
  }

  /** A unique index can still fire when two different userIds race for one email or phone. */
  private async withUniqueGuard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError(ErrorCode.UserConflict);
      throw error;
    }
  }
}
