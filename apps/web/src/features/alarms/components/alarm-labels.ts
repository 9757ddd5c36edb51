import type { TFunction } from 'i18next';
import { ALARM_KINDS, type Alarm, type AlarmKind } from '@wv/contracts';
import { useTranslation } from '@/lib/i18n';
import { formatDateTime } from '@/lib/dates';

const isKnownKind = (kind: string): kind is AlarmKind => (ALARM_KINDS as readonly string[]).includes(kind);

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T/;
const display = (value: unknown): string =>
  typeof value === 'string' && ISO_INSTANT.test(value) && !Number.isNaN(Date.parse(value))
    ? formatDateTime(value)
    : String(value);

/** The details an alarm carries (docs/alarms.md, "The alarms") that a person acts on, each in a sentence. */
const FACTS = [
  'tankLevelPct',
  'lowTankPct',
  'tdsPpm',
  'maxTdsPpm',
  'coldWaterTempC',
  'maxColdWaterTempC',
  'readings',
  'coinBoxPct',
  'errorCode',
  'shortSales',
  'windowMinutes',
  'missing',
  'firstSeenAt',
  'since',
  'lastSaleAt',
  'lastSeen',
  'reopened',
] as const;
type Fact = (typeof FACTS)[number];

/** Details that repeat what the alarm already says (its time) or only identify things for the server. */
const UNSAID = new Set(['at', 'lastEventId', 'noSalesAfterMinutes', 'volume', 'dispensed']);

function factsOf(t: TFunction, details: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const [name, value] of Object.entries(details)) {
    if (value === null || value === undefined || typeof value === 'object' || UNSAID.has(name)) continue;
    if ((FACTS as readonly string[]).includes(name))
      out.push(t(`alarms.fact.${name as Fact}`, { value: display(value) }));
    else out.push(`${name}: ${display(value)}`);
  }
  if (typeof details.dispensed === 'number' && typeof details.volume === 'number') {
    out.push(t('alarms.fact.shortDispense', { dispensed: details.dispensed, volume: details.volume }));
  }
  return out;
}

/** The words for an alarm's kind and what its details say, in the current language. */
export function useAlarmWords() {
  const { t } = useTranslation();
  const kind = (value: string): string => (isKnownKind(value) ? t(`alarm.kind.${value}`) : value.replace(/_/g, ' '));
  const facts = (alarm: Pick<Alarm, 'details'>): string[] => factsOf(t, alarm.details ?? {});
  return { kind, facts };
}
