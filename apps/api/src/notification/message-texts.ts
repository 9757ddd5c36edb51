import i18next from 'i18next';
import { USER_LANGUAGES, type UserLanguage } from '@wv/contracts';

/**
 * The texts of every email and SMS the server sends, in each user's language (docs/alarms.md,
 * "Languages"): English and Kiswahili, the web app's two languages and words. Plain text: nothing is
 * escaped. A recipient without a known language reads English.
 */
const en = {
  kind: {
    offline: 'offline',
    no_sales: 'no sales',
    short_dispense: 'short dispense',
    low_tank: 'low tank',
    water_quality: 'water quality (TDS)',
    water_temperature: 'water temperature',
    coin_box_full: 'coin box full',
    device_error: 'device error',
    sales_gap: 'sales missing',
  },
  severity: { critical: 'critical', major: 'major', minor: 'minor' },
  severityCount: '{{n}} {{severity}}',
  alarm: {
    escalatedPrefix: 'ESCALATED ',
    emailSubject: '{{prefix}}[{{severity}}] {{kind}} at {{machine}}',
    stillOpen: 'Still open and not acknowledged: ',
    machine: 'Machine: {{machine}}',
    opened: 'Opened: {{time}} ({{timezone}})',
    details: 'Details: {{details}}',
    act: 'Acknowledge or assign it on the Alarms page.',
    digestSubject: '{{n}} alarms on your machines ({{counts}})',
    digestHead: '{{n}} alarms since the last message (times in {{timezone}}):',
    digestMore: '… and {{n}} more.',
    digestFoot: 'Every alarm is on the Alarms page.',
    sms: '{{prefix}}{{severity}}: {{kind}} at {{machine}} since {{time}}',
    smsDigestHead: '{{n}} alarms ({{counts}}):',
    smsMore: ' +{{n}} more',
  },
  report: {
    subject: 'Daily report {{day}}',
    summary:
      'Figures of {{day}} ({{timezone}}) for your {{machines}} machine(s):\n' +
      'Coin revenue {{coin}} {{currency}}, card revenue {{card}} {{currency}}, alarms opened {{alarms}}.\n\n' +
      'Each machine is in the attached {{file}}.\n',
    sheet: 'Report {{day}}',
    columns: {
      machine: 'Machine',
      location: 'Location',
      coinRevenue: 'Coin revenue',
      coinLitres: 'Coin litres',
      cardRevenue: 'Card revenue',
      cardLitres: 'Card litres',
      alarmsOpened: 'Alarms opened',
    },
    total: 'Total',
  },
  receipt: {
    withReceipt: 'M-Pesa receipt {{receipt}}: {{currency}} {{amount}} added to card {{card}}',
    withoutReceipt: 'M-Pesa payment: {{currency}} {{amount}} added to card {{card}}',
    balance: ', new balance {{currency}} {{balance}}',
  },
};

type Texts = typeof en;

const sw: Texts = {
  kind: {
    offline: 'nje ya mtandao',
    no_sales: 'hakuna mauzo',
    short_dispense: 'maji pungufu',
    low_tank: 'tangi liko chini',
    water_quality: 'ubora wa maji (TDS)',
    water_temperature: 'joto la maji',
    coin_box_full: 'sanduku la sarafu limejaa',
    device_error: 'hitilafu ya kifaa',
    sales_gap: 'mauzo yanayokosekana',
  },
  severity: { critical: 'hatari', major: 'kubwa', minor: 'ndogo' },
  severityCount: '{{severity}} {{n}}',
  alarm: {
    escalatedPrefix: 'IMEPANDISHWA ',
    emailSubject: '{{prefix}}[{{severity}}] {{kind}} kwenye {{machine}}',
    stillOpen: 'Bado iko wazi na haijapokelewa: ',
    machine: 'Mashine: {{machine}}',
    opened: 'Ilianza: {{time}} ({{timezone}})',
    details: 'Maelezo: {{details}}',
    act: 'Ipokee au mkabidhi mtu kwenye ukurasa wa Tahadhari.',
    digestSubject: 'Tahadhari {{n}} kwenye mashine zako ({{counts}})',
    digestHead: 'Tahadhari {{n}} tangu ujumbe uliopita (saa za {{timezone}}):',
    digestMore: '… na nyingine {{n}}.',
    digestFoot: 'Tahadhari zote ziko kwenye ukurasa wa Tahadhari.',
    sms: '{{prefix}}{{severity}}: {{kind}} kwenye {{machine}} tangu {{time}}',
    smsDigestHead: 'Tahadhari {{n}} ({{counts}}):',
    smsMore: ' +{{n}} zaidi',
  },
  report: {
    subject: 'Ripoti ya siku {{day}}',
    summary:
      'Takwimu za {{day}} ({{timezone}}) za mashine zako {{machines}}:\n' +
      'Mapato ya sarafu {{coin}} {{currency}}, mapato ya kadi {{card}} {{currency}}, tahadhari zilizoanza {{alarms}}.\n\n' +
      'Kila mashine iko kwenye faili lililoambatishwa {{file}}.\n',
    sheet: 'Ripoti {{day}}',
    columns: {
      machine: 'Mashine',
      location: 'Mahali',
      coinRevenue: 'Mapato ya sarafu',
      coinLitres: 'Lita za sarafu',
      cardRevenue: 'Mapato ya kadi',
      cardLitres: 'Lita za kadi',
      alarmsOpened: 'Tahadhari zilizoanza',
    },
    total: 'Jumla',
  },
  receipt: {
    withReceipt: 'Risiti ya M-Pesa {{receipt}}: {{currency}} {{amount}} zimeongezwa kwenye kadi {{card}}',
    withoutReceipt: 'Malipo ya M-Pesa: {{currency}} {{amount}} zimeongezwa kwenye kadi {{card}}',
    balance: ', salio jipya {{currency}} {{balance}}',
  },
};

/** Both languages' texts, for the tests that check every key has its translation. */
export const MESSAGE_TEXTS: Record<UserLanguage, Texts> = { en, sw };

const instance = i18next.createInstance();
void instance.init({
  resources: { en: { translation: en }, sw: { translation: sw } },
  lng: 'en',
  fallbackLng: 'en',
  supportedLngs: [...USER_LANGUAGES],
  interpolation: { escapeValue: false },
  // The resources are in memory: ready when this module is loaded.
  initAsync: false,
});

/** A recipient's language as stored, or English for anything else (none yet, an unknown value). */
export const messageLanguage = (value: unknown): UserLanguage =>
  USER_LANGUAGES.includes(value as UserLanguage) ? (value as UserLanguage) : 'en';

/** A text by its key, with its placeholders filled in. */
export type MessageT = (key: string, values?: Record<string, unknown>) => string;

/**
 * The texts of one language: `t('alarm.sms', {...})`. Keys are plain strings here: the web app types
 * i18next's keys with its own resources, and both are compiled together in the tests.
 */
export function messageTexts(language: UserLanguage): MessageT {
  const lng = messageLanguage(language);
  const texts = instance as unknown as { t(key: string, options: Record<string, unknown>): string };
  return (key, values) => texts.t(key, { ...values, lng });
}
