import { Injectable, Logger } from '@nestjs/common';
import { espIdSchema } from '@wv/contracts';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { KeyedBatch } from '../common/keyed-batch.js';
import { isDatabaseUnavailable } from '../common/pg-errors.js';
import { DeviceRepository } from './device.repository.js';

/** How long a verified key is trusted without asking PostgreSQL again. */
const FRESH_MS = 10 * 60_000;
/** How long a verified key is remembered for when PostgreSQL cannot be reached. */
const REMEMBERED_MS = 24 * 3600_000;
/** Machines remembered per process at most (a fleet is thousands); the oldest are forgotten first. */
const MAX_REMEMBERED = 200_000;

interface Verified {
  hash: Buffer;
  at: number;
}

/**
 * Device keys are 256 random bits shown once; only their SHA-256 is stored. A slow hash (argon2)
 * buys nothing for keys of that entropy and would cap MQTT connects per second.
 *
 * Verified keys are remembered per process, so that a reconnect storm does not become a storm of
 * database reads, and machines keep connecting and selling while PostgreSQL is down (their sales only
 * need the queue). A rotated key is forgotten in every process at once: SessionRevocation calls
 * `forget` on each process's copy, and `forgetAll` when it may have missed a message.
 */
@Injectable()
export class DeviceKeyService {
  private readonly logger = new Logger(DeviceKeyService.name);
  private readonly verified = new Map<string, Verified>();
  /** Bumped by every forget: a lookup that raced a revocation does not remember what it read. */
  private generation = 0;

  /**
   * Key hashes read for many connects at once: a reconnect storm is a few reads, not one per machine. At 500
   * reconnects a second a 2 ms linger read one or two keys per statement after a broker restart (no key is in
   * memory then); 10 ms reads about five, and costs a machine whose key is not remembered 10 ms at most.
   */
  private readonly lookups = new KeyedBatch<string, undefined, string | null>(
    (batch) => this.devices.keyHashes([...batch.keys()]),
    {
      lingerMs: 10,
      maxBatch: 500,
    },
  );

  constructor(private readonly devices: DeviceRepository) {}

  static generate(): { key: string; hash: string } {
    const key = randomBytes(32).toString('base64url');
    return { key, hash: DeviceKeyService.hash(key) };
  }

  static hash(key: string): string {
    return createHash('sha256').update(key, 'utf8').digest('hex');
  }

  /**
   * True when `key` is the device key of `espId`. Throws when PostgreSQL is needed and cannot be
   * reached (the caller answers "unavailable", not "wrong key").
   */
  async verify(espId: string, key: string): Promise<boolean> {
    // Callers pass what a request said (the HTTP guard runs before input validation): an id no device
    // can have is refused here, not sent to PostgreSQL (a NUL in it was a 500).
    if (!wellFormed(espId, key)) return false;
    const presented = digest(key);
    const known = this.verified.get(espId);
    if (known && Date.now() - known.at < FRESH_MS && sameHash(known.hash, presented)) return true;

    const generation = this.generation;
    let stored: string | null;
    try {
      stored = (await this.lookups.add(espId, undefined)) ?? null;
    } catch (error) {
      if (isDatabaseUnavailable(error) && known && Date.now() - known.at < REMEMBERED_MS) {
        if (sameHash(known.hash, presented)) return true;
      }
      throw error;
    }
    const current = stored === null ? null : Buffer.from(stored, 'hex');
    const ok = current !== null && sameHash(current, presented);
    if (ok && generation === this.generation) this.remember(espId, presented);
    else if (!ok && known && !(current && sameHash(current, known.hash))) this.verified.delete(espId);
    return ok;
  }

  /** True when `key` was verified for `espId` within the last minutes; never asks PostgreSQL. */
  verifyKnown(espId: string, key: string): boolean {
    if (!wellFormed(espId, key)) return false;
    const known = this.verified.get(espId);
    return !!known && Date.now() - known.at < FRESH_MS && sameHash(known.hash, digest(key));
  }

  /** The key of `espId` changed (or the device is gone): the next check asks PostgreSQL. */
  forget(espId: string): void {
    this.generation++;
    this.verified.delete(espId);
  }

  /** Revocations may have been missed (the channel reconnected): trust nothing remembered. */
  forgetAll(): void {
    this.generation++;
    if (this.verified.size > 0) this.logger.log(`Forgot ${this.verified.size} remembered device keys`);
    this.verified.clear();
  }

  private remember(espId: string, hash: Buffer): void {
    // Re-inserted so that the Map's order stays oldest-verified first.
    this.verified.delete(espId);
    if (this.verified.size >= MAX_REMEMBERED) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(espId, { hash, at: Date.now() });
  }
}

function wellFormed(espId: string, key: string): boolean {
  return !!espId && !!key && key.length <= 256 && espIdSchema.safeParse(espId).data === espId;
}

function sameHash(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

function digest(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}
