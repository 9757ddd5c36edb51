import type { BatchLine } from './notification-outbox.repository.js';
import { localClock } from '../common/local-time.js';

/** An email digest lists this many alarms; the rest are counted. */
export const EMAIL_LIST_LIMIT = 50;
/** An SMS stays within two parts (2 × 153 GSM-7 characters). */
export const SMS_MAX_CHARS = 306;

const KIND_TEXT: Record<string, string> = {
  offline: 'offline',
  no_sales: 'no sales',
  short_dispense: 'short dispense',
  low_tank: 'low tank',
  water_quality: 'water quality (TDS)',
  water_temperature: 'water temperature',
  coin_box_full: 'coin box full',
  device_error: 'device error',
  sales_gap: 'sales missing',
};

const kindText = (kind: string) => KIND_TEXT[kind] ?? kind.replace(/_/g, ' ');

function localTime(at: Date, timezone: string): string {
  const { day, time } = localClock(timezone, at);
  return `${day} ${time}`;
}

const machine = (l: BatchLine) => (l.location ? `${l.espId} (${l.location})` : l.espId);
const prefix = (l: BatchLine) => (l.event === 'escalated' ? 'ESCALATED ' : '');

function countBySeverity(lines: BatchLine[]): string {
  return (['critical', 'major', 'minor'] as const)
    .map((s) => [s, lines.filter((l) => l.severity === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${n} ${s}`)
    .join(', ');
}

/** The email for the alarm events of one batch: one alarm, or a digest of many (docs/alarms.md, "Notifications"). */
export function composeEmail(lines: BatchLine[], timezone: string): { subject: string; text: string } {
  if (lines.length === 1) {
    const l = lines[0]!;
    const details = Object.keys(l.details ?? {}).length ? `\nDetails: ${JSON.stringify(l.details)}` : '';
    return {
      subject: `${prefix(l)}[${l.severity.toUpperCase()}] ${kindText(l.kind)} at ${machine(l)}`,
      text:
        `${l.event === 'escalated' ? 'Still open and not acknowledged: ' : ''}${kindText(l.kind)} (${l.severity})\n` +
        `Machine: ${machine(l)}\nOpened: ${localTime(new Date(l.openedAt), timezone)} (${timezone})${details}\n\n` +
        `Acknowledge or assign it on the Alarms page.\n`,
    };
  }
  const shown = lines.slice(0, EMAIL_LIST_LIMIT);
  const rest = lines.length - shown.length;
  const body = shown.map(
    (l) =>
      `- ${localTime(new Date(l.openedAt), timezone)}  ${prefix(l)}${l.severity.toUpperCase()}  ${kindText(l.kind)}  ${machine(l)}`,
  );
  if (rest > 0) body.push(`… and ${rest} more.`);
  return {
    subject: `${lines.length} alarms on your machines (${countBySeverity(lines)})`,
    text:
      `${lines.length} alarms since the last message (times in ${timezone}):\n\n${body.join('\n')}\n\n` +
      `Every alarm is on the Alarms page.\n`,
  };
}

/** The SMS for one batch: one alarm, or a count and the first few machines. */
export function composeSms(lines: BatchLine[], timezone: string): string {
  if (lines.length === 1) {
    const l = lines[0]!;
    const text = `${prefix(l)}${l.severity.toUpperCase()}: ${kindText(l.kind)} at ${machine(l)} since ${localTime(new Date(l.openedAt), timezone).slice(11)}`;
    return text.slice(0, SMS_MAX_CHARS);
  }
  const head = `${lines.length} alarms (${countBySeverity(lines)}):`;
  let text = head;
  let listed = 0;
  for (const l of lines) {
    const item = ` ${l.espId} ${kindText(l.kind)};`;
    const more = ` +${lines.length - listed - 1} more`;
    if (text.length + item.length + more.length > SMS_MAX_CHARS) break;
    text += item;
    listed++;
  }
  if (listed < lines.length) text += ` +${lines.length - listed} more`;
  return text;
}
