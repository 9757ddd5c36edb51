import { describe, expect, it } from '@jest/globals';
import ExcelJS from 'exceljs';
import type { AppConfig } from '../config/app-config.js';
import { dailyReportColumns, DailyReportService } from './daily-report.service.js';

describe('the daily report workbook', () => {
  it('has a row per machine with numbers, then the totals', async () => {
    const service = new DailyReportService({} as never, {} as never, { timezone: 'UTC' } as AppConfig);
    const buffer = await service.workbook(
      [
        {
          espId: 'ESP-1',
          location: 'Kariakoo',
          coinRevenue: '750.50',
          coinLitres: '15.500',
          cardRevenue: '0.10',
          cardLitres: '0.200',
          alarmsOpened: 1,
        },
        {
          espId: 'ESP-2',
          location: null,
          coinRevenue: '0.20',
          coinLitres: '0.100',
          cardRevenue: '0.20',
          cardLitres: '0.100',
          alarmsOpened: 0,
        },
      ],
      '2026-11-24',
    );
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(buffer as unknown as ArrayBuffer);
    const rows = wb.worksheets[0]!.getSheetValues()
      .filter(Boolean)
      .map((r) => (r as unknown[]).slice(1));
    expect(rows).toEqual([
      ['Machine', 'Location', 'Coin revenue', 'Coin litres', 'Card revenue', 'Card litres', 'Alarms opened'],
      ['ESP-1', 'Kariakoo', 750.5, 15.5, 0.1, 0.2, 1],
      ['ESP-2', '', 0.2, 0.1, 0.2, 0.1, 0],
      // Cents and millilitres add exactly: 0.1 + 0.2 is 0.3 here, not 0.30000000000000004.
      ['Total', '', 750.7, 15.6, 0.3, 0.3, 1],
    ]);
  });

  it('names the sheet, its columns and the totals in the manager’s language', async () => {
    const service = new DailyReportService(
      {} as never,
      {} as never,
      {
        timezone: 'Africa/Dar_es_Salaam',
        currency: 'TZS',
      } as AppConfig,
    );
    const row = {
      espId: 'ESP-1',
      location: 'Kariakoo',
      coinRevenue: '1000.00',
      coinLitres: '20.000',
      cardRevenue: '250.50',
      cardLitres: '5.000',
      alarmsOpened: 2,
    };
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await service.workbook([row], '2026-11-24', 'sw')) as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0]!;
    expect(sheet.name).toBe('Ripoti 2026-11-24');
    const rows = sheet
      .getSheetValues()
      .filter(Boolean)
      .map((r) => (r as unknown[]).slice(1));
    expect(rows[0]).toEqual(dailyReportColumns('sw'));
    expect(rows[0]).toEqual([
      'Mashine',
      'Mahali',
      'Mapato ya sarafu',
      'Lita za sarafu',
      'Mapato ya kadi',
      'Lita za kadi',
      'Tahadhari zilizoanza',
    ]);
    expect(rows[2]).toEqual(['Jumla', '', 1000, 20, 250.5, 5, 2]);
    expect(dailyReportColumns()).toEqual(dailyReportColumns('en'));

    expect(service.summary([row], '2026-11-24', 'sw')).toBe(
      'Takwimu za 2026-11-24 (Africa/Dar_es_Salaam) za mashine zako 1:\n' +
        'Mapato ya sarafu 1000 TZS, mapato ya kadi 250.5 TZS, tahadhari zilizoanza 2.\n\n' +
        'Kila mashine iko kwenye faili lililoambatishwa daily_report_2026-11-24.xlsx.\n',
    );
    expect(service.summary([row], '2026-11-24')).toBe(
      'Figures of 2026-11-24 (Africa/Dar_es_Salaam) for your 1 machine(s):\n' +
        'Coin revenue 1000 TZS, card revenue 250.5 TZS, alarms opened 2.\n\n' +
        'Each machine is in the attached daily_report_2026-11-24.xlsx.\n',
    );
  });
});
