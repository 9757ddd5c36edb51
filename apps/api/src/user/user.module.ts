import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module.js';
import { DeviceModule } from '../device/device.module.js';
import { EventsModule } from '../events/events.module.js';
import { AccountAdminController } from './account-admin.controller.js';
import { AccountAdminService } from './account-admin.service.js';
import { AttendantService } from './attendant.service.js';
import { UserAccounts } from './user-accounts.js';
import { UserController } from './user.controller.js';
import { UserRepository } from './user.repository.js';
import { UserService } from './user.service.js';

/** Users: managers, attendants and admins, and their accounts. */
@Module({
  imports: [AuditModule, DeviceModule, EventsModule],
  providers: [UserRepository, UserAccounts, UserService, AttendantService, AccountAdminService],
  exports: [UserAccounts, UserService, AttendantService, AccountAdminService],
})
export class UserModule {}

/** The users' REST endpoints (api role). */
@Module({ imports: [UserModule], controllers: [UserController, AccountAdminController] })
export class UserApiModule {}
