import type { Random } from './prng.js';

/**
 * Relative sales per hour of the local day. Water kiosks are busiest when people fetch water before
 * work (06:00–09:00) and after it (17:00–20:00); nights are nearly idle.
 */
// prettier-ignore
export const HOURLY_WEIGHTS: readonly number[] = [
  0.1, 0.05, 0.05, 0.05, 0.1, 0.4, // 00–05
  2.2, 2.6, 2.2, 1.1, 0.9, 0.9, // 06–11
  1.0, 1.0, 0.9, 0.9, 1.1, 2.3, // 12–17
  2.7, 2.4, 1.2, 0.6, 0.3, 0.15, // 18–23
];

const MEAN_WEIGHT = HOURLY_WEIGHTS.reduce((a, b) => a + b, 0) / HOURLY_WEIGHTS.length;

/** The machines stand in Tanzania; this is also the API's default APP_TIMEZONE. */
export const DEFAULT_TIME_ZONE = 'Africa/Dar_es_Salaam';

/** The factor for an hour: 1 on average over the day, so `--rate` stays the 24-hour mean. */
export function dayCurveFactor(hour: number): number {
  return HOURLY_WEIGHTS[hour]! / MEAN_WEIGHT;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The hour (0–23) of `date` on the wall clock of `timeZone`. */
export function localHour(date: Date, timeZone: string = DEFAULT_TIME_ZONE): number {
  let fmt = formatters.get(timeZone);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat('en-GB', { timeZone, hour: 'numeric', hourCycle: 'h23' });
    formatters.set(timeZone, fmt);
  }
  return Number(fmt.format(date)) % 24;
}

/** Throws a clear error for a time zone name Intl does not know. */
export function assertTimeZone(timeZone: string): void {
  localHour(new Date(0), timeZone);
}

/** Draws the local hour of one sale following the curve (for history generation and for tests). */
export function drawHourOfDay(rng: Random): number {
  return rng.weighted(HOURLY_WEIGHTS.map((w, hour) => [hour, w] as const));
}
