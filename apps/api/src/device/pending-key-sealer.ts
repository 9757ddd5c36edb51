import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';

/**
 * Seals the device key of an assignment that waits in PostgreSQL for its machine to come and fetch
 * it over MQTT (docs/security.md, provisioning).
 *
 * The machine needs the key itself, so a hash will not do; and the key must survive restarts and
 * reach whichever process runs the broker, so broker memory will not do either. Stored in the clear,
 * a database dump or a read-only SQL injection would hand out working device keys. So it is sealed
 * with AES-256-GCM under a key derived (HKDF-SHA256) from JWT_SECRET, which lives outside the
 * database, with the MAC and ESP ID as associated data so that a sealed key copied to another row
 * does not open; and the sealed key is deleted once the machine has connected with the key.
 *
 * JWT_SECRET is random per start when unset (never in production): a key sealed before a restart or
 * a change of JWT_SECRET then no longer opens. The admin recovers by rotating the device key, which
 * seals the new key under the current secret.
 */
export class PendingKeySealer {
  private readonly key: Buffer;

  /** `purpose` separates the keys of different uses of the sealer: a key sealed for one does not open for another. */
  constructor(secret: string, purpose = 'wv-pending-device-key') {
    this.key = Buffer.from(hkdfSync('sha256', secret, purpose, 'aes-256-gcm', 32));
  }

  seal(deviceKey: string, binding: { macAddress: string; espId: string }): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(associatedData(binding));
    const sealed = Buffer.concat([cipher.update(deviceKey, 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), sealed]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  /** The device key, or null when it was sealed under another secret or for another row. */
  open(sealed: string, binding: { macAddress: string; espId: string }): string | null {
    const [version, iv, tag, data] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || data === undefined) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(associatedData(binding));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}

function associatedData(binding: { macAddress: string; espId: string }): Buffer {
  return Buffer.from(`${binding.macAddress}\n${binding.espId}`, 'utf8');
}
