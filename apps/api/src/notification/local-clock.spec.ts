import { describe, expect, it } from '@jest/globals';
import { dayBefore, localClock, reportDayDue } from './local-clock.js';

describe('the daily report clock', () => {
  it('reads the local day and time in the business time zone', () => {
    expect(localClock('Africa/Dar_es_Salaam', new Date('2026-11-25T21:30:00Z'))).toEqual({
      day: '2026-11-26',
      time: '00:30',
    });
  });

  it('steps back across months and years', () => {
    expect(dayBefore('2026-03-01')).toBe('2026-02-28');
    expect(dayBefore('2027-01-01')).toBe('2026-12-31');
  });

  it('reports yesterday once the report time is reached, and nothing before it', () => {
    // 06:59 and 07:00 in Dar es Salaam (UTC+3).
    expect(reportDayDue('Africa/Dar_es_Salaam', '07:00', new Date('2026-11-25T03:59:00Z'))).toBeNull();
    expect(reportDayDue('Africa/Dar_es_Salaam', '07:00', new Date('2026-11-25T04:00:00Z'))).toBe('2026-11-24');
  });
});
