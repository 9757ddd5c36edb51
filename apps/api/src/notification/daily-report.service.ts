import { Inject, Injectable, Logger } from '@nestjs/common';
import type { UserLanguage } from '@wv/contracts';
import ExcelJS from 'exceljs';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { centsToAmount, toCents } from '../money/money.js';
import { ChannelError } from './channel-error.js';
import { DailyReportRepository, type DailyReportRow } from './daily-report.repository.js';
import { reportDayDue } from './local-clock.js';
import { MailSender } from './mail.sender.js';
import { messageLanguage, messageTexts } from './message-texts.js';

/** The sheet's columns, in order, by their key in the message texts. */
const COLUMNS = ['machine', 'location', 'coinRevenue', 'coinLitres', 'cardRevenue', 'cardLitres', 'alarmsOpened'];

/** The sheet's header row in a language (English: Machine, Location, Coin revenue, …). */
export const dailyReportColumns = (language: UserLanguage = 'en'): string[] => {
  const t = messageTexts(language);
  return COLUMNS.map((c) => t(`report.columns.${c}`));
};

const MAX_ATTEMPTS = 20;

/**
 * The daily report (docs/alarms.md, "Notifications"): at DAILY_REPORT_TIME in APP_TIMEZONE every
 * manager whose email is on gets yesterday's figures per machine as `daily_report_YYYY-MM-DD.xlsx`, once
 * per manager and day however many workers run (a row per manager and day, claimed with a lease).
 */
@Injectable()
export class DailyReportService {
  private readonly logger = new Logger('DailyReport');

  constructor(
    private readonly reports: DailyReportRepository,
    private readonly mail: MailSender,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Queues the reports due at `now`; answers how many were new. */
  async schedule(now = new Date()): Promise<number> {
    if (!this.mail.enabled) return 0;
    const day = reportDayDue(this.config.timezone, this.config.notifications.dailyReportTime, now);
    if (!day) return 0;
    return this.reports.queueForDay(day, this.mail.domain);
  }

  /** Sends one due report; answers false when none was due. */
  async sendNext(): Promise<boolean> {
    if (!this.mail.enabled) return false;
    const report = await this.reports.claim(this.config.notifications.leaseSeconds);
    if (!report) return false;
    try {
      const rows = await this.reports.rows(report.managerId, report.day, this.config.timezone);
      const language = messageLanguage(report.language);
      const content = await this.workbook(rows, report.day, language);
      await this.mail.send({
        to: report.address,
        subject: messageTexts(language)('report.subject', { day: report.day }),
        text: this.summary(rows, report.day, language),
        messageId: report.messageId,
        attachments: [
          {
            filename: `daily_report_${report.day}.xlsx`,
            content,
            contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
          },
        ],
      });
    } catch (error) {
      const permanent = error instanceof ChannelError && error.permanent;
      this.logger.warn(`Daily report ${report.day} for ${report.managerId} not sent: ${(error as Error).message}`);
      await this.reports.markFailed(report.managerId, report.day, (error as Error).message, {
        permanent,
        retryDelayMs: this.config.notifications.retryDelayMs,
        maxAttempts: MAX_ATTEMPTS,
      });
      return true;
    }
    await this.reports.markSent(report.managerId, report.day);
    return true;
  }

  /**
   * One sheet: a row per machine, then the totals. Money and litres are numbers, not text; the sheet's
   * name, headers and "Total" are in the manager's language.
   */
  async workbook(rows: DailyReportRow[], day: string, language: UserLanguage = 'en'): Promise<Buffer> {
    const t = messageTexts(language);
    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet(t('report.sheet', { day }));
    sheet.addRow(dailyReportColumns(language)).font = { bold: true };
    const totals = { coin: 0, coinL: 0, card: 0, cardL: 0, alarms: 0 };
    for (const r of rows) {
      const coin = toCents(r.coinRevenue);
      const card = toCents(r.cardRevenue);
      totals.coin += coin;
      totals.card += card;
      totals.coinL += Number(r.coinLitres);
      totals.cardL += Number(r.cardLitres);
      totals.alarms += r.alarmsOpened;
      sheet.addRow([
        r.espId,
        r.location ?? '',
        centsToAmount(coin),
        Number(r.coinLitres),
        centsToAmount(card),
        Number(r.cardLitres),
        r.alarmsOpened,
      ]);
    }
    const round3 = (n: number) => Number(n.toFixed(3));
    sheet.addRow([
      t('report.total'),
      '',
      centsToAmount(totals.coin),
      round3(totals.coinL),
      centsToAmount(totals.card),
      round3(totals.cardL),
      totals.alarms,
    ]).font = { bold: true };
    sheet.columns.forEach((c, i) => (c.width = i < 2 ? 18 : 14));
    return Buffer.from(await wb.xlsx.writeBuffer());
  }

  /** The email's text: the day's totals, in the manager's language. */
  summary(rows: DailyReportRow[], day: string, language: UserLanguage = 'en'): string {
    const sum = (f: (r: DailyReportRow) => string) => rows.reduce((a, r) => a + toCents(f(r)), 0);
    return messageTexts(language)('report.summary', {
      day,
      timezone: this.config.timezone,
      machines: rows.length,
      coin: centsToAmount(sum((r) => r.coinRevenue)),
      card: centsToAmount(sum((r) => r.cardRevenue)),
      currency: this.config.currency,
      alarms: rows.reduce((a, r) => a + r.alarmsOpened, 0),
      file: `daily_report_${day}.xlsx`,
    });
  }
}
