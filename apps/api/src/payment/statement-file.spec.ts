import { describe, expect, it } from '@jest/globals';
import ExcelJS from 'exceljs';
import { readStatement, StatementFileError } from './statement-file.js';

const HEADER =
  'Receipt No.,Completion Time,Initiation Time,Details,Transaction Status,Paid In,Withdrawn,Balance,Other Party Info,A/C No.';

describe('readStatement', () => {
  it('reads the money-in lines below the header, in East Africa Time, with the account and payer', async () => {
    const csv = [
      'Organisation Name,Water Co',
      'Short Code,174379',
      '',
      HEADER,
      'SKL1AB2CD3,2026-11-25 13:05:09,2026-11-25 13:05:00,"Pay Bill from 254708374149 - JANE Acc. CARD-1",Completed,"1,200.00",,5000.00,254708374149 - JANE,CARD-1',
      'SKL1AB2CD4,25-11-2026 14:00:00,,Business Charge,Completed,,15.00,4985.00,,',
      'SKL1AB2CD5,2026-11-25 15:00:00,,Pay Bill from 2547****149 - JOHN Acc. CARD-2,Completed,50.00,,5035.00,2547****149 - JOHN,',
      'SKL1AB2CD6,2026-11-25 16:00:00,,Pay Bill,Failed,70.00,,,,CARD-3',
    ].join('\r\n');
    const entries = await readStatement(Buffer.from(csv), 'statement.csv');
    expect(entries).toEqual([
      {
        receipt: 'SKL1AB2CD3',
        completedAt: new Date('2026-11-25T10:05:09Z'),
        amountCents: 120_000,
        accountReference: 'CARD-1',
        msisdn: '254708374149',
        paybill: true,
      },
      {
        receipt: 'SKL1AB2CD5',
        completedAt: new Date('2026-11-25T12:00:00Z'),
        amountCents: 5_000,
        accountReference: 'CARD-2',
        msisdn: null,
        paybill: true,
      },
    ]);
  });

  it('reads an xlsx workbook, date cells holding the wall-clock time', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Sheet1');
    sheet.addRow(HEADER.split(','));
    sheet.addRow([
      'SKL1AB2CD7',
      new Date(Date.UTC(2026, 10, 25, 8, 30, 0)),
      null,
      'Pay Bill Acc. C-9',
      'Completed',
      30,
    ]);
    const buffer = Buffer.from(await workbook.xlsx.writeBuffer());
    const [entry] = await readStatement(buffer, 'x.xlsx');
    expect(entry).toMatchObject({ receipt: 'SKL1AB2CD7', amountCents: 3_000, accountReference: 'C-9' });
    expect(entry!.completedAt.toISOString()).toBe('2026-11-25T05:30:00.000Z');
  });

  it.each([
    ['no header', 'a,b\r\n1,2', /Receipt No\./],
    ['a missing column', 'Receipt No.,Details\r\nSKL1AB2CD3,x', /completion time/],
    ['a bad receipt', `${HEADER}\r\nnot-one,2026-11-25 13:05:09,,x,Completed,10,,,,C`, /Line 2/],
    ['a bad amount', `${HEADER}\r\nSKL1AB2CD3,2026-11-25 13:05:09,,x,Completed,ten,,,,C`, /Paid In/],
    ['a bad time', `${HEADER}\r\nSKL1AB2CD3,yesterday,,x,Completed,10,,,,C`, /Completion Time/],
  ])('refuses a file with %s', async (_what, csv, message) => {
    await expect(readStatement(Buffer.from(csv), 'f.csv')).rejects.toThrow(StatementFileError);
    await expect(readStatement(Buffer.from(csv), 'f.csv')).rejects.toThrow(message);
  });
});
