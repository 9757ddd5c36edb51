import { Injectable } from '@nestjs/common';
import {
  ErrorCode,
  type AddUserDeviceRequest,
  type AdminUserRow,
  type Esp32IdRow,
  type RegisterUserCommand,
  type UserInfo,
} from '@wv/contracts';
import { DataSource } from 'typeorm';
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
  ) {}

  async info(actor: Actor): Promise<UserInfo> {
    const user = await this.users.findActiveById(actor.userId);
    if (!user) throw new AppError(ErrorCode.UserNotFound);
    const { firstName, lastName, username, email, phoneNumber, location } = user;
    return { firstName, lastName, username, email, phoneNumber, location };
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

  /** POST /add/user/devices: an admin gives any user a device; a manager claims an unowned one. */
  async addDevice(actor: Actor, input: AddUserDeviceRequest): Promise<{ message: string }> {
    if (actor.role === 'manager' && input.userId !== actor.userId) {
      throw new AppError(ErrorCode.Forbidden, 'A manager may add devices only to their own account');
    }
    await this.dataSource.transaction(async (m) => {
      const user = await this.users.findById(input.userId, m);
      if (!user || user.deletedAt) throw new AppError(ErrorCode.UserNotFound);
      if (user.role === 'attendant')
        throw new AppError(ErrorCode.ValidationFailed, 'Attendants are assigned to a device by their manager');
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
    return { message: 'Device added successfully' };
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
