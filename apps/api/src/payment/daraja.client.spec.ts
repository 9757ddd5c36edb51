import { describe, expect, it } from '@jest/globals';
import { darajaTimestamp, toDarajaMsisdn } from './daraja.client.js';

describe('Daraja helpers', () => {
  it('writes the timestamp in East Africa Time, YYYYMMDDHHmmss', () => {
    expect(darajaTimestamp(new Date('2026-12-31T22:59:58Z'))).toBe('20270101015958');
  });

  it.each([
    ['+254708374149', '254708374149'],
    ['254708374149', '254708374149'],
    ['0708374149', '254708374149'],
    ['0110 123 456', '254110123456'],
    ['+255712345678', null],
    ['0208374149', null],
    ['+2547083741490', null],
  ])('reads %s as %s', (phone, msisdn) => {
    expect(toDarajaMsisdn(phone)).toBe(msisdn);
  });
});
