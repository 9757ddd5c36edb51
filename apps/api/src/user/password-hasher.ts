import { Algorithm, hash, verify } from '@node-rs/argon2';

/** argon2id with OWASP's minimum parameters (19 MiB, 2 passes): strong and fast enough for logins. */
const OPTIONS = { algorithm: Algorithm.Argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string): Promise<string> => hash(password, OPTIONS);

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** A hash of nothing, verified against when the user is unknown so that timing reveals nothing. */
let dummyHash: Promise<string> | undefined;
export const dummyPasswordHash = (): Promise<string> => (dummyHash ??= hashPassword('not-a-real-password'));
