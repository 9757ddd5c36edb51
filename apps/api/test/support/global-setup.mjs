import { randomBytes } from 'node:crypto';

/**
 * Names this Jest run. Test files create their databases (clones of a per-run migrated template)
 * and Redis prefixes from it, so that runs and files never collide. Plain JS: Jest loads global
 * setup outside its ESM transform.
 */
export default async function globalSetup() {
  process.env.WV_TEST_RUN_ID ??= `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
}
