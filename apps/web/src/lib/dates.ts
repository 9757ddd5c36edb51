import { useEffect, useState } from 'react';
import { env } from '@/config/env';
import { intlLocale } from '@/lib/format';

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

const dateFormats = new Map<string, Intl.DateTimeFormat>();

function dateFormat(options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const locale = intlLocale();
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options);
    dateFormats.set(key, format);
  }
  return format;
}

// Intl may put a narrow no-break space before AM/PM; a plain space reads and matches the same.
const plainSpaces = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

/**
 * An instant as date and time in the chosen language, on the app's clock (APP_TIMEZONE, docs/operations.md,
 * "Configuration"): a browser in another zone shows the same time as the machines' own.
 */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return plainSpaces(dateFormat({ dateStyle: 'medium', timeStyle: 'short', timeZone: env.timeZone }).format(date));
}

/** A `YYYY-MM-DD` calendar date in the chosen language (no time, no zone shift). */
export function formatCalendarDate(date: string): string {
  const [year, month, day] = date.split('-').map(Number);
  const noon = Date.UTC(year, month - 1, day, 12);
  if (Number.isNaN(noon)) return date;
  return plainSpaces(dateFormat({ dateStyle: 'medium', timeZone: 'UTC' }).format(noon));
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
