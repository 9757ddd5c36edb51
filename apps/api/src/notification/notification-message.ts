import { ALARM_KINDS, type UserLanguage } from '@wv/contracts';
import type { BatchLine } from './notification-outbox.repository.js';
import { localClock } from '../common/local-time.js';
import { messageTexts, type MessageT } from './message-texts.js';

/** An email digest lists this many alarms; the rest are counted. */
export const EMAIL_LIST_LIMIT = 50;
/** An SMS stays within two parts (2 × 153 GSM-7 characters). */
export const SMS_MAX_CHARS = 306;

/** The kinds the texts name; a kind from a newer server is said as it is. */
const KINDS = new Set<string>(ALARM_KINDS);

const kindText = (t: MessageT, kind: string) => (KINDS.has(kind) ? t(`kind.${kind}`) : kind.replace(/_/g, ' '));
const severityText = (t: MessageT, severity: BatchLine['severity']) => t(`severity.${severity}`);

function localTime(at: Date, timezone: string): string {
  const { day, time } = localClock(timezone, at);
  return `${day} ${time}`;
}

const machine = (l: BatchLine) => (l.location ? `${l.espId} (${l.location})` : l.espId);
const prefix = (t: MessageT, l: BatchLine) => (l.event === 'escalated' ? t('alarm.escalatedPrefix') : '');

function countBySeverity(t: MessageT, lines: BatchLine[]): string {
  return (['critical', 'major', 'minor'] as const)
    .map((s) => [s, lines.filter((l) => l.severity === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => t('severityCount', { n, severity: severityText(t, s) }))
    .join(', ');
}

/**
 * The email for the alarm events of one batch: one alarm, or a digest of many (docs/alarms.md,
 * "Notifications"), in the recipient's language ("Languages"); times in `timezone`.
 */
export function composeEmail(
  lines: BatchLine[],
  timezone: string,
  language: UserLanguage = 'en',
): { subject: string; text: string } {
  const t = messageTexts(language);
  if (lines.length === 1) {
    const l = lines[0]!;
    const kind = kindText(t, l.kind);
    const severity = severityText(t, l.severity);
    const details = Object.keys(l.details ?? {}).length
      ? `\n${t('alarm.details', { details: JSON.stringify(l.details) })}`
      : '';
    return {
      subject: t('alarm.emailSubject', {
        prefix: prefix(t, l),
        severity: severity.toUpperCase(),
        kind,
        machine: machine(l),
      }),
      text:
        `${l.event === 'escalated' ? t('alarm.stillOpen') : ''}${kind} (${severity})\n` +
        `${t('alarm.machine', { machine: machine(l) })}\n` +
        `${t('alarm.opened', { time: localTime(new Date(l.openedAt), timezone), timezone })}${details}\n\n` +
        `${t('alarm.act')}\n`,
    };
  }
  const shown = lines.slice(0, EMAIL_LIST_LIMIT);
  const rest = lines.length - shown.length;
  const body = shown.map(
    (l) =>
      `- ${localTime(new Date(l.openedAt), timezone)}  ${prefix(t, l)}${severityText(t, l.severity).toUpperCase()}  ${kindText(t, l.kind)}  ${machine(l)}`,
  );
  if (rest > 0) body.push(t('alarm.digestMore', { n: rest }));
  return {
    subject: t('alarm.digestSubject', { n: lines.length, counts: countBySeverity(t, lines) }),
    text:
      `${t('alarm.digestHead', { n: lines.length, timezone })}\n\n${body.join('\n')}\n\n` +
      `${t('alarm.digestFoot')}\n`,
  };
}

/**
 * The SMS for one batch: one alarm, or a count and the first few machines, in the recipient's language
 * (English when none is known).
 */
export function composeSms(lines: BatchLine[], timezone: string, language: UserLanguage = 'en'): string {
  const t = messageTexts(language);
  if (lines.length === 1) {
    const l = lines[0]!;
    const text = t('alarm.sms', {
      prefix: prefix(t, l),
      severity: severityText(t, l.severity).toUpperCase(),
      kind: kindText(t, l.kind),
      machine: machine(l),
      time: localTime(new Date(l.openedAt), timezone).slice(11),
    });
    return text.slice(0, SMS_MAX_CHARS);
  }
  let text = t('alarm.smsDigestHead', { n: lines.length, counts: countBySeverity(t, lines) });
  let listed = 0;
  for (const l of lines) {
    const item = ` ${l.espId} ${kindText(t, l.kind)};`;
    const more = t('alarm.smsMore', { n: lines.length - listed - 1 });
    if (text.length + item.length + more.length > SMS_MAX_CHARS) break;
    text += item;
    listed++;
  }
  if (listed < lines.length) text += t('alarm.smsMore', { n: lines.length - listed });
  return text;
}
