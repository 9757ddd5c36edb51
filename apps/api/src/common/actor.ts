import type { Role } from '@wv/contracts';

/** Who is calling: every scoped query takes one (admin: all; manager: own; attendant: own device). */
export interface Actor {
  userId: string;
  role: Role;
}

/** A machine authenticated by its X-Device-Key. */
export interface DeviceCaller {
  espId: string;
}

export type Caller = { kind: 'user'; actor: Actor } | { kind: 'device'; device: DeviceCaller } | { kind: 'anonymous' };
