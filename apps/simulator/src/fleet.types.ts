import type { MachineIdentity, MachineOptions, MachineStats } from './machine.types.js';

export interface FleetOptions extends Omit<MachineOptions, 'identity' | 'random' | 'rate' | 'bootId'> {
  /** Seeded credentials and/or MACs to provision; one machine each. */
  identities?: readonly MachineIdentity[];
  /** How many machines: the first N identities, or N generated ones when none are given (default 10). */
  machines?: number;
  /** With no identities: generate MACs that go through provisioning instead of made-up credentials. */
  provision?: boolean;
  /** Sales per second of the whole fleet (24-hour mean when the day curve is on); default 0. */
  rate?: number;
  /** Seeds every machine's PRNG, so MACs, passwords and the sale mix replay. Random when absent. */
  seed?: number;
}

export type FleetStats = Omit<
  MachineStats,
  'espId' | 'macAddress' | 'state' | 'online' | 'configVersion' | 'faults' | 'lastSeq' | 'cardListVersion' | 'cutOff'
> & {
  machines: number;
  online: number;
  /** Machines connected as `provision`, waiting for an admin to assign an id. */
  awaitingId: number;
  /** Machines with a scripted fault on. */
  faulty: number;
};
