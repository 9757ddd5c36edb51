import { describe, expect, it } from '@jest/globals';
import ExcelJS from 'exceljs';
import type { AppConfig } from '../config/app-config.js';
import { DailyReportService } from './daily-report.service.js';

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
});
