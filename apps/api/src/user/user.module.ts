import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module.js';
import { DeviceModule } from '../device/device.module.js';
import { EventsModule } from '../events/events.module.js';
import { AttendantService } from './attendant.service.js';
import { UserAccounts } from './user-accounts.js';
import { UserController } from './user.controller.js';
import { UserRepository } from './user.repository.js';
import { UserService } from './user.service.js';

/** Users: managers, attendants and admins, and their accounts. */
@Module({
  imports: [AuditModule, DeviceModule, EventsModule],
  providers: [UserRepository, UserAccounts, UserService, AttendantService],
  exports: [UserAccounts, UserService, AttendantService],
})
export class UserModule {}

/** The users' REST endpoints (api role). */
@Module({ imports: [UserModule], controllers: [UserController] })
export class UserApiModule {}
