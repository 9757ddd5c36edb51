/** Local calendar dates and times of day in a time zone (APP_TIMEZONE: docs/operations.md, "Configuration"). */
const formatters = new Map<string, Intl.DateTimeFormat>();

export interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
}

/** The wall-clock reading of `at` in `timeZone`, to the minute. */
export function localParts(at: Date, timeZone: string): LocalParts {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  const parts = f.formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  return { year: get('year'), month: get('month'), day: get('day'), hour: get('hour'), minute: get('minute') };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `{day: 'YYYY-MM-DD', time: 'HH:MM'}` of `at` in `timeZone`. */
export function localClock(timeZone: string, at = new Date()): { day: string; time: string } {
  const p = localParts(at, timeZone);
  return { day: `${p.year}-${pad(p.month)}-${pad(p.day)}`, time: `${pad(p.hour)}:${pad(p.minute)}` };
}
