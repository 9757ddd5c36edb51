import { describe, expect, it } from '@jest/globals';
import { businessWindowStart } from './business-hours.js';

const TZ = 'Africa/Dar_es_Salaam'; // UTC+3, no daylight saving
const local = (day: number, h: number, m = 0) => new Date(Date.UTC(2026, 10, day, h - 3, m));

describe('businessWindowStart', () => {
  it('answers the opening of the same day inside a daytime window and null outside it', () => {
    const hours = { from: '06:00', to: '22:00' };
    expect(businessWindowStart(local(25, 6), hours, TZ)).toEqual(local(25, 6));
    expect(businessWindowStart(local(25, 21, 59), hours, TZ)).toEqual(local(25, 6));
    expect(businessWindowStart(local(25, 22), hours, TZ)).toBeNull();
    expect(businessWindowStart(local(25, 5, 59), hours, TZ)).toBeNull();
  });

  it('spans midnight when from is later than to', () => {
    const hours = { from: '20:00', to: '04:00' };
    expect(businessWindowStart(local(25, 23), hours, TZ)).toEqual(local(25, 20));
    expect(businessWindowStart(local(26, 0, 30), hours, TZ)).toEqual(local(25, 20));
    expect(businessWindowStart(local(26, 3, 59), hours, TZ)).toEqual(local(25, 20));
    expect(businessWindowStart(local(26, 4), hours, TZ)).toBeNull();
    expect(businessWindowStart(local(26, 12), hours, TZ)).toBeNull();
  });

  it('treats equal times as the whole day, a window that never closes and so never restarts the clock', () => {
    const hours = { from: '07:00', to: '07:00' };
    expect(businessWindowStart(local(25, 8), hours, TZ)).toEqual(new Date(0));
    expect(businessWindowStart(local(25, 6), hours, TZ)).toEqual(new Date(0));
    expect(businessWindowStart(local(25, 7), { from: '00:00', to: '00:00' }, TZ)).toEqual(new Date(0));
  });

  it('follows a zone with daylight saving time', () => {
    // Europe/Berlin moved to UTC+2 on 2026-03-29 at 02:00 local.
    const hours = { from: '06:00', to: '22:00' };
    expect(businessWindowStart(new Date('2026-03-29T10:00:00Z'), hours, 'Europe/Berlin')).toEqual(
      new Date('2026-03-29T04:00:00Z'),
    );
    expect(businessWindowStart(new Date('2026-03-28T10:00:00Z'), hours, 'Europe/Berlin')).toEqual(
      new Date('2026-03-28T05:00:00Z'),
    );
  });
});
