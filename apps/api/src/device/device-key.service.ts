import { Injectable } from '@nestjs/common';
import { espIdSchema } from '@wv/contracts';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { DeviceRepository } from './device.repository.js';

/**
 * Device keys are 256 random bits shown once; only their SHA-256 is stored. A slow hash (argon2)
 * buys nothing for keys of that entropy and would cap MQTT connects per second.
 */
@Injectable()
export class DeviceKeyService {
  constructor(private readonly devices: DeviceRepository) {}

  static generate(): { key: string; hash: string } {
    const key = randomBytes(32).toString('base64url');
    return { key, hash: DeviceKeyService.hash(key) };
  }

  static hash(key: string): string {
    return createHash('sha256').update(key, 'utf8').digest('hex');
  }

  async verify(espId: string, key: string): Promise<boolean> {
    // Callers pass what a request said (the HTTP guard runs before input validation): an id no device
    // can have is refused here, not sent to PostgreSQL (a NUL in it was a 500).
    if (!espId || !key || key.length > 256 || espIdSchema.safeParse(espId).data !== espId) return false;
    const stored = await this.devices.keyHash(espId);
    if (!stored) return false;
    const a = Buffer.from(stored, 'hex');
    const b = Buffer.from(DeviceKeyService.hash(key), 'hex');
    return a.length === b.length && timingSafeEqual(a, b);
  }
}
