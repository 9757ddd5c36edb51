/**
 * @jest-environment ./apps/web/test/foreign-zone-environment.js
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { act, renderHook, screen } from '@testing-library/react';
import { env } from '@/config/env';
import { setLanguage } from '@/lib/i18n';
import { TransactionsView } from '@/features/transactions/components/transactions-view';
import { startApiServer, type ApiServer } from '../../test/api-server';
import { renderWithQueries } from '../../test/render';
import { businessDate, businessHour, formatCalendarDate, formatDateTime, useToday } from './dates';

// A browser in New York (test/foreign-zone-environment.js) sees the app's dates and days as Dar es Salaam's:
// at 22:00 UTC on 31 March it is 18:00 on the 31st in New York and already 01:00 on 1 April in Dar es Salaam.
const EVENING_IN_NEW_YORK = new Date('2026-03-31T22:00:00Z');

let server: ApiServer;

beforeAll(async () => {
  server = await startApiServer();
  Object.assign(env, { apiUrl: server.apiUrl });
});
afterAll(() => server.close());
afterEach(async () => {
  jest.useRealTimers();
  server.requests.length = 0;
  localStorage.clear();
  await setLanguage('en');
});

describe('a browser in New York', () => {
  it('really is in New York (the premise of these tests)', () => {
    expect(EVENING_IN_NEW_YORK.getHours()).toBe(18);
    expect(EVENING_IN_NEW_YORK.getDate()).toBe(31);
    expect(EVENING_IN_NEW_YORK.getTimezoneOffset()).toBe(240);
  });

  it('puts an instant in Dar es Salaam’s business day and hour', () => {
    expect(businessDate(EVENING_IN_NEW_YORK)).toBe('2026-04-01');
    expect(businessHour(EVENING_IN_NEW_YORK)).toBe(1);
    expect(businessDate('2026-03-31T20:59:59Z')).toBe('2026-03-31');
  });

  it('shows instants on Dar es Salaam’s clock, in English and in Kiswahili', async () => {
    expect(formatDateTime(EVENING_IN_NEW_YORK.toISOString())).toBe('1 Apr 2026, 01:00');
    await setLanguage('sw');
    expect(formatDateTime(EVENING_IN_NEW_YORK.toISOString())).toBe('1 Apr 2026, 01:00');
    expect(formatDateTime('2026-08-14T03:30:00Z')).toBe('14 Ago 2026, 06:30');
  });

  it('shows a calendar date as that day, not the day before', () => {
    expect(formatCalendarDate('2026-02-03')).toBe('3 Feb 2026');
  });

  it('calls today Dar es Salaam’s today', () => {
    jest.useFakeTimers({ now: EVENING_IN_NEW_YORK });
    const { result } = renderHook(() => useToday());
    expect(result.current).toBe('2026-04-01');
    act(() => void jest.advanceTimersByTime(60_000));
    expect(result.current).toBe('2026-04-01');
  });

  it('filters machine transactions by Dar es Salaam’s day', async () => {
    jest.useFakeTimers({ now: EVENING_IN_NEW_YORK, advanceTimers: true });
    localStorage.setItem('token', 'manager-token');
    server.answer(() => ({ body: { data: [], total: 0 } }));
    renderWithQueries(<TransactionsView kind="coin" machineId="ESP1" />);
    await screen.findByText('No transactions found.');
    expect(server.requests[0].query).toMatchObject({ startDate: '2026-04-01', endDate: '2026-04-01' });
    expect((screen.getByLabelText('Start Date') as HTMLInputElement).value).toBe('2026-04-01');
  });
});
