import { localClock } from '../common/local-time.js';

export { localClock };

/** The calendar day before `day` (YYYY-MM-DD). */
export function dayBefore(day: string): string {
  const d = new Date(`${day}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}

/**
 * The day whose report is due at `now`: yesterday, once the local time reached `reportTime` (a program
 * that starts later in the day still sends it); null before that time.
 */
export function reportDayDue(timezone: string, reportTime: string, now = new Date()): string | null {
  const { day, time } = localClock(timezone, now);
  return time >= reportTime ? dayBefore(day) : null;
}
