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

  it('keeps seq, offline and dispensed, and names each one that is not what the protocol says', () => {
    const payload = JSON.stringify([
      { ...sale, seq: 7, offline: true, dispensed: 0.95 },
      { ...sale, eventId: 'e-2', seq: 0 },
      { ...sale, eventId: 'e-3', seq: 2.5 },
      { ...sale, eventId: 'e-4', offline: 'true' },
      { ...sale, eventId: 'e-5', dispensed: 1.0001 },
      { ...sale, eventId: 'e-6', seq: Number.MAX_SAFE_INTEGER + 2 },
    ]);
    const { sales, rejections } = parseSalesPayload('ESP-1', payload, receivedAt);
    expect(sales).toEqual([expect.objectContaining({ eventId: 'e-1', seq: 7, offline: true, dispensed: 0.95 })]);
    expect(rejections.map((r) => [r.index, r.eventId, r.reason])).toEqual([
      [1, 'e-2', 'seq: seq must be 1 or more'],
      [2, 'e-3', 'seq: seq must be a whole number'],
      [3, 'e-4', 'offline: offline must be true or false'],
      [4, 'e-5', 'dispensed: dispensed has more than 3 decimals'],
      [5, 'e-6', expect.stringMatching(/^seq: /)],
    ]);
  });
});
