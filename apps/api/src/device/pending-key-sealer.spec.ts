import { describe, expect, it } from '@jest/globals';
import { PendingKeySealer } from './pending-key-sealer.js';

describe('PendingKeySealer', () => {
  const binding = { macAddress: 'A1:B2:C3:D4:E5:F6', espId: 'ESP-1' };

  it('opens what it sealed, and the sealed text does not contain the key', () => {
    const sealer = new PendingKeySealer('a-jwt-secret-of-some-length');
    const sealed = sealer.seal('the-device-key', binding);
    expect(sealed).not.toContain('the-device-key');
    expect(sealer.open(sealed, binding)).toBe('the-device-key');
  });

  it('does not open under another secret, for another row, or when tampered with', () => {
    const sealed = new PendingKeySealer('a-jwt-secret-of-some-length').seal('k', binding);
    expect(new PendingKeySealer('another-jwt-secret-value').open(sealed, binding)).toBeNull();
    const sealer = new PendingKeySealer('a-jwt-secret-of-some-length');
    expect(sealer.open(sealed, { ...binding, espId: 'ESP-2' })).toBeNull();
    expect(sealer.open(sealed, { ...binding, macAddress: 'A1:B2:C3:D4:E5:F7' })).toBeNull();
    const parts = sealed.split('.');
    const data = parts[3]!;
    parts[3] = `${data[0] === 'A' ? 'B' : 'A'}${data.slice(1)}`;
    expect(sealer.open(parts.join('.'), binding)).toBeNull();
    expect(sealer.open('garbage', binding)).toBeNull();
  });
});
