/** Local calendar day and time of day in APP_TIMEZONE (docs/alarms.md, "Notifications": the daily report). */
export function localClock(timezone: string, now = new Date()): { day: string; time: string } {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: timezone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(now);
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  return { day: `${get('year')}-${get('month')}-${get('day')}`, time: `${get('hour')}:${get('minute')}` };
}

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
