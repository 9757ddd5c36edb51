import type { StatementLine } from './daraja-sandbox.js';

const HEADER = [
  'Receipt No.',
  'Completion Time',
  'Initiation Time',
  'Details',
  'Transaction Status',
  'Paid In',
  'Withdrawn',
  'Balance',
  'Balance Confirmed',
  'Reason Type',
  'Other Party Info',
  'Linked Transaction ID',
  'A/C No.',
];

const quote = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** `YYYY-MM-DD HH:mm:ss` in East Africa Time, as the statement prints times. */
function statementTime(at: Date): string {
  const eat = new Date(at.getTime() + 3 * 3600_000);
  return eat.toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * The lines as an M-Pesa organisation statement in CSV (the columns of the statement downloaded from
 * the M-Pesa Org Portal), newest first as the portal lists them; the balance runs over the lines.
 */
export function statementCsv(lines: StatementLine[]): string {
  let balance = 0;
  const rows = lines.map((l) => {
    balance += l.paidIn;
    const time = statementTime(l.completedAt);
    return [
      l.receipt,
      time,
      time,
      l.details,
      'Completed',
      l.paidIn.toFixed(2),
      '',
      balance.toFixed(2),
      'true',
      'Pay Bill Online',
      l.otherParty,
      '',
      l.accountNumber,
    ];
  });
  return [HEADER, ...rows.reverse()].map((r) => r.map(quote).join(',')).join('\r\n') + '\r\n';
}
