/** Calendar days of the business (APP_TIMEZONE): every date of the sales views is one of these. */
const formatters = new Map<string, Intl.DateTimeFormat>();

/** Today in `timezone` as `YYYY-MM-DD` (docs/rest-api.md, "Details": a missing `date` means today there). */
export function todayIn(timezone: string, now = new Date()): string {
  let f = formatters.get(timezone);
  if (!f) {
    // en-CA formats as YYYY-MM-DD.
    f = new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timezone, f);
  }
  return f.format(now);
}

/** The first day of the month holding `day`. */
export function monthOf(day: string): string {
  return `${day.slice(0, 7)}-01`;
}

/** Numeric text from PostgreSQL to a JSON number, at the edge; a missing number is 0 (docs/web-app.md, "Screens"). */
export function num(value: string | number | null | undefined): number {
  return value === null || value === undefined ? 0 : Number(value);
}
