import { describe, expect, it } from '@jest/globals';
import { normalizePhone } from './phone.js';

describe('normalizePhone', () => {
  it.each([
    ['+255712345678', '+255712345678'],
    ['255712345678', '+255712345678'],
    ['0712345678', '+255712345678'],
    ['0712 345 678', '+255712345678'],
    ['712345678', '+255712345678'],
    ['+254 (712) 345-678', '+254712345678'],
    ['00254712345678', '+254712345678'],
  ])('normalises %s to %s', (input, expected) => {
    expect(normalizePhone(input)).toBe(expected);
  });

  it.each(['', 'abc', '12', '+0712345678', '0712345678901234567', 'admin@demo.local'])('rejects %p', (input) => {
    expect(normalizePhone(input)).toBeNull();
  });
});
