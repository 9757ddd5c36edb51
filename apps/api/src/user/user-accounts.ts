import { Injectable } from '@nestjs/common';
import { UserRepository } from './user.repository.js';

/** The user accounts as sign-in and sessions (REST and live) need them. */
@Injectable()
export class UserAccounts {
  constructor(private readonly users: UserRepository) {}

  findActiveForSession(...args: Parameters<UserRepository['findActiveForSession']>) {
    return this.users.findActiveForSession(...args);
  }

  findForLogin(...args: Parameters<UserRepository['findForLogin']>) {
    return this.users.findForLogin(...args);
  }

  findById(...args: Parameters<UserRepository['findById']>) {
    return this.users.findById(...args);
  }

  setPassword(...args: Parameters<UserRepository['setPassword']>) {
    return this.users.setPassword(...args);
  }
}
