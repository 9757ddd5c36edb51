/**
 * Business hours in APP_TIMEZONE (docs/alarms.md, "no_sales"): `from`–`to` as HH:MM local times; a
 * `from` later than `to` spans midnight (20:00–04:00), and equal times mean the whole day.
 */

import { localParts, type LocalParts } from '../common/local-time.js';

const MINUTE_MS = 60_000;

/** Minutes past local midnight. */
const minutesOf = (p: LocalParts) => p.hour * 60 + p.minute;

/** The instant of local `minutes` past midnight of the local day `dayOffset` days from `day`'s. */
function zonedInstant(day: LocalParts, dayOffset: number, minutes: number, timeZone: string): Date {
  const guess = Date.UTC(day.year, day.month - 1, day.day + dayOffset, 0, minutes);
  // The zone's offset at the guess, then once more at the result (a change of offset in between).
  let result = guess;
  for (let i = 0; i < 2; i++) {
    const p = localParts(new Date(result), timeZone);
    const asUtc = Date.UTC(p.year, p.month - 1, p.day, 0, minutesOf(p));
    result = result + (guess - asUtc);
  }
  return new Date(Math.floor(result / MINUTE_MS) * MINUTE_MS);
}

/** The opening of a window that is open all day, every day: before any sale or connect. */
const ALWAYS_OPEN = new Date(0);

const toMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * When the business-hours window that holds `now` opened, or null when `now` is outside business hours.
 */
export function businessWindowStart(now: Date, hours: { from: string; to: string }, timeZone: string): Date | null {
  const local = localParts(now, timeZone);
  const from = toMinutes(hours.from);
  const to = toMinutes(hours.to);
  const t = minutesOf(local);
  if (from < to) return t >= from && t < to ? zonedInstant(local, 0, from, timeZone) : null;
  // All day: a window that never closes never opens either, so the clock does not restart at `from`
  // (a machine with no sale from 23:30 is due at 01:30, not two hours after midnight).
  if (from === to) return ALWAYS_OPEN;
  // Across midnight: open from `from` today, or since `from` yesterday.
  if (t >= from) return zonedInstant(local, 0, from, timeZone);
  if (t < to) return zonedInstant(local, -1, from, timeZone);
  return null;
}
