import { Inject, Injectable, Logger } from '@nestjs/common';
import ExcelJS from 'exceljs';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { centsToAmount, toCents } from '../money/money.js';
import { ChannelError } from './channel-error.js';
import { DailyReportRepository, type DailyReportRow } from './daily-report.repository.js';
import { reportDayDue } from './local-clock.js';
import { MailSender } from './mail.sender.js';

export const DAILY_REPORT_COLUMNS = [
  'Machine',
  'Location',
  'Coin revenue',
  'Coin litres',
  'Card revenue',
  'Card litres',
  'Alarms opened',
] as const;

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
      const content = await this.workbook(rows, report.day);
      await this.mail.send({
        to: report.address,
        subject: `Daily report ${report.day}`,
        text: this.summary(rows, report.day),
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

  /** One sheet: a row per machine, then the totals. Money and litres are numbers, not text. */
  async workbook(rows: DailyReportRow[], day: string): Promise<Buffer> {
    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet(`Report ${day}`);
    sheet.addRow([...DAILY_REPORT_COLUMNS]).font = { bold: true };
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
      'Total',
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

  private summary(rows: DailyReportRow[], day: string): string {
    const sum = (f: (r: DailyReportRow) => string) => rows.reduce((a, r) => a + toCents(f(r)), 0);
    const alarms = rows.reduce((a, r) => a + r.alarmsOpened, 0);
    return (
      `Figures of ${day} (${this.config.timezone}) for your ${rows.length} machine(s):\n` +
      `Coin revenue ${centsToAmount(sum((r) => r.coinRevenue))} ${this.config.currency}, ` +
      `card revenue ${centsToAmount(sum((r) => r.cardRevenue))} ${this.config.currency}, ` +
      `alarms opened ${alarms}.\n\nEach machine is in the attached daily_report_${day}.xlsx.\n`
    );
  }
}
