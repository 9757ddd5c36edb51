import { espIdSchema, macAddressSchema, normalizeMac } from '@wv/contracts';
import type { MachineCredentials, ProvisioningIdentity } from './machine.types.js';
import type { Random } from './prng.js';

/** Espressif's OUI, so generated MACs look like an ESP32's. */
export const ESPRESSIF_OUI = 'A4CF12';

/** Machines without an id: MACs and first-boot passwords from the seed, so a rerun is the same fleet. */
export function generateMacIdentities(count: number, rng: Random): ProvisioningIdentity[] {
  const seen = new Set<string>();
  const out: ProvisioningIdentity[] = [];
  while (out.length < count) {
    const macAddress = normalizeMac(`${ESPRESSIF_OUI}${rng.hex(6)}`);
    if (seen.has(macAddress)) continue;
    seen.add(macAddress);
    out.push({ macAddress, provisionPassword: rng.hex(16) });
  }
  return out;
}

/**
 * Made-up ids and keys (`SIM-0001` / `sim-key-0001`), for a plain broker that checks no keys.
 * The platform's broker refuses them: give it seeded credentials or use provisioning.
 */
export function generateCredentials(count: number): MachineCredentials[] {
  return Array.from({ length: count }, (_, i) => {
    const n = String(i + 1).padStart(4, '0');
    return { espId: `SIM-${n}`, deviceKey: `sim-key-${n}` };
  });
}

/** Validates a `--machines-file` document: `[{espId, deviceKey, cards?}]`. Throws a sentence naming the bad entry. */
export function parseCredentialsList(doc: unknown): MachineCredentials[] {
  if (!Array.isArray(doc) || doc.length === 0) throw new Error('expected a non-empty JSON array of {espId, deviceKey}');
  const seen = new Set<string>();
  return doc.map((item: unknown, i) => {
    const entry = item as Partial<Record<'espId' | 'deviceKey' | 'cards', unknown>> | null;
    const espId = espIdSchema.safeParse(entry?.espId);
    if (!espId.success) throw new Error(`entry ${i}: espId ${espId.error.issues[0]?.message ?? 'is invalid'}`);
    if (seen.has(espId.data)) throw new Error(`entry ${i}: espId ${espId.data} appears twice`);
    seen.add(espId.data);
    if (typeof entry?.deviceKey !== 'string' || entry.deviceKey === '') {
      throw new Error(`entry ${i}: deviceKey must be a non-empty string`);
    }
    const credentials: MachineCredentials = { espId: espId.data, deviceKey: entry.deviceKey };
    if (entry.cards !== undefined) credentials.cards = parseCardList(entry.cards, `entry ${i}: cards`);
    return credentials;
  });
}

/** Validates a card list: a JSON array of non-empty card ids (at most 64 characters, as the sale schema allows). */
export function parseCardList(doc: unknown, what = 'cards'): string[] {
  if (!Array.isArray(doc)) throw new Error(`${what}: expected a JSON array of card ids`);
  return doc.map((c: unknown, i) => {
    if (typeof c !== 'string' || c.trim() === '' || c.length > 64) {
      throw new Error(`${what}[${i}]: a card id is a string of 1 to 64 characters`);
    }
    return c.trim();
  });
}

/** Checks a MAC given by hand; returns it as `AA:BB:CC:DD:EE:FF`. */
export function parseMacAddress(input: string): string {
  const mac = macAddressSchema.safeParse(input);
  if (!mac.success) throw new Error(`${input}: ${mac.error.issues[0]?.message}`);
  return mac.data;
}
