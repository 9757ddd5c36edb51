import { Logger } from '@nestjs/common';
import { randomBytes, randomUUID } from 'node:crypto';
import type { AppConfig } from '../config/app-config.js';
import type { UserRepository } from './user.repository.js';
import { isUniqueViolation } from '../common/pg-errors.js';
import { hashPassword } from './password-hasher.js';

/**
 * On start, when no admin exists, create one from ADMIN_EMAIL/ADMIN_PASSWORD, or with a generated
 * password printed once (docs/operations.md, "Configuration").
 */
export async function ensureFirstAdmin(config: AppConfig, users: UserRepository): Promise<void> {
  if ((await users.countAdmins()) > 0) return;
  const logger = new Logger('FirstAdmin');
  const email = config.admin.email ?? 'admin@localhost';
  const password = config.admin.password ?? randomBytes(12).toString('base64url');
  const inserted = await users
    .insert({
      id: randomUUID(),
      role: 'admin',
      firstName: 'Admin',
      lastName: 'User',
      username: 'admin',
      email,
      phoneNumber: '+255000000000',
      location: 'Head office',
      passwordHash: await hashPassword(password),
      managerId: null,
    })
    .then(() => true)
    // Another process of the same deployment created it at the same moment.
    .catch((error: unknown) => {
      if (isUniqueViolation(error)) return false;
      throw error;
    });
  if (!inserted) return;
  if (config.admin.password) logger.log(`Created the first admin ${email} from ADMIN_EMAIL/ADMIN_PASSWORD`);
  else logger.warn(`Created the first admin ${email} with the generated password ${password} (shown once; change it)`);
}
