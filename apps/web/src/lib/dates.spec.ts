import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { act, renderHook } from '@testing-library/react';
import { setLanguage } from '@/lib/i18n';
import { businessDate, businessHour, formatCalendarDate, formatDateTime, monthOf, useToday } from './dates';

// The app's zone is the server's default, Africa/Dar_es_Salaam (UTC+3, no daylight saving: test/env.js);
// dates.new-york.spec.ts runs the same rules in a browser in New York.

afterEach(() => {
  jest.useRealTimers();
});

describe('the business day', () => {
  it('is the date in the server’s zone, not in UTC or the browser’s zone', () => {
    expect(businessDate('2026-03-31T20:59:59Z')).toBe('2026-03-31');
    expect(businessDate('2026-03-31T21:00:00Z')).toBe('2026-04-01');
    expect(businessDate(Date.UTC(2026, 11, 31, 22, 0))).toBe('2027-01-01');
  });

  it('puts a sale in the hour of the server’s clock, midnight being hour 0', () => {
    expect(businessHour('2026-03-31T21:30:00Z')).toBe(0);
    expect(businessHour('2026-03-31T20:59:59Z')).toBe(23);
    expect(businessHour(new Date('2026-01-01T10:15:00Z'))).toBe(13);
  });

  it('gives the month of a date', () => {
    expect(monthOf('2026-04-01')).toBe('2026-04');
  });

  it('moves on at midnight on a page left open', () => {
    jest.useFakeTimers({ now: new Date('2026-03-31T20:59:30Z') });
    const { result } = renderHook(() => useToday());
    expect(result.current).toBe('2026-03-31');

    act(() => void jest.advanceTimersByTime(60_000));
    expect(result.current).toBe('2026-04-01');
  });
});

describe('showing dates', () => {
  afterEach(async () => {
    localStorage.clear();
    await setLanguage('en');
  });

  it('shows an instant on the app’s clock (Dar es Salaam), in the chosen language, and nothing for a missing one', async () => {
    const iso = '2026-03-31T21:05:00Z';
    expect(formatDateTime(iso)).toBe('1 Apr 2026, 00:05');
    expect(formatDateTime(null)).toBe('');
    expect(formatDateTime('')).toBe('');
    await setLanguage('sw');
    expect(formatDateTime('2026-08-14T06:30:00Z')).toBe('14 Ago 2026, 09:30');
  });

  it('shows a value that is not a date as it came', () => {
    expect(formatDateTime('yesterday')).toBe('yesterday');
  });

  it('shows a calendar date as that same day, without a shift from any time zone', async () => {
    expect(formatCalendarDate('2026-02-03')).toBe('3 Feb 2026');
    await setLanguage('sw');
    expect(formatCalendarDate('2026-12-31')).toBe('31 Des 2026');
  });
});
