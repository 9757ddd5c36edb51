import { describe, expect, it } from '@jest/globals';
import { parseSalesPayload } from './sale-parser.js';

const receivedAt = new Date('2026-01-10T10:00:00Z');
const sale = { eventId: 'e-1', kind: 'coin', price: 100, volume: 1, waterType: 'pure' };

describe('parseSalesPayload', () => {
  it('rejects a payload nested deeper than any sale, without walking it', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const { sales, rejections } = parseSalesPayload('ESP-1', deep, receivedAt);
    expect(sales).toEqual([]);
    expect(rejections).toEqual([{ index: null, reason: 'payload is nested more than 32 levels deep', raw: deep }]);
  });

  it('rejects ids PostgreSQL would not store as sent (NUL, lone surrogates), and keeps the rest', () => {
    const payload = JSON.stringify([
      sale,
      { ...sale, eventId: 'e\u00002' },
      { ...sale, eventId: 'e-3', kind: 'card', cardId: 'c\u0000' },
      { ...sale, eventId: 'e\ud800' },
    ]);
    const { sales, rejections } = parseSalesPayload('ESP-1', payload, receivedAt);
    expect(sales.map((s) => s.eventId)).toEqual(['e-1']);
    expect(rejections.map((r) => [r.index, r.reason])).toEqual([
      [1, 'eventId: eventId must be valid Unicode text without the NUL character'],
      [2, 'cardId: cardId must be valid Unicode text without the NUL character'],
      [3, 'eventId: eventId must be valid Unicode text without the NUL character'],
    ]);
  });

  it('spells out a NUL character quoted in a reason', () => {
    const { rejections } = parseSalesPayload('ESP-1', JSON.stringify({ ...sale, ['x\u0000']: 1 }), receivedAt);
    expect(rejections[0]!.reason).toBe('unknown field x\\u0000');
  });
});
