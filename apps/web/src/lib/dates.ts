import { useEffect, useState } from 'react';
import { env } from '@/config/env';

/**
 * `YYYY-MM-DD` of an instant in the app's time zone (the server's business day, docs/operations.md, "Configuration").
 */
const dayFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: env.timeZone,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

const hourFormat = new Intl.DateTimeFormat('en-GB', { timeZone: env.timeZone, hour: '2-digit', hourCycle: 'h23' });

export function businessDate(instant: Date | string | number = Date.now()): string {
  const parts = dayFormat.formatToParts(new Date(instant));
  const get = (type: string) => parts.find((part) => part.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** Hour 0–23 of an instant in the app's time zone (the dashboard's sales-by-hour buckets). */
export function businessHour(instant: Date | string | number): number {
  return Number(hourFormat.format(new Date(instant))) % 24;
}

/** `YYYY-MM` of a `YYYY-MM-DD` date. */
export const monthOf = (date: string): string => date.slice(0, 7);

/** Dates are shown in the browser's local format. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

/** A `YYYY-MM-DD` calendar date in the browser's local format (no time, no zone shift). */
export function formatCalendarDate(date: string): string {
  const [year, month, day] = date.split('-').map(Number);
  return new Date(year, month - 1, day).toLocaleDateString();
}

/** Today's business date; re-read every minute so that an open page moves on at midnight. */
export function useToday(): string {
  const [today, setToday] = useState(businessDate);
  useEffect(() => {
    const timer = window.setInterval(() => setToday(businessDate()), 60_000);
    return () => window.clearInterval(timer);
  }, []);
  return today;
}
