import ExcelJS from 'exceljs';

/** One money-in line of an M-Pesa organisation statement. */
export interface StatementEntry {
  receipt: string;
  completedAt: Date;
  amountCents: number;
  accountReference: string;
  /** The payer's number when the statement shows it whole, else null. */
  msisdn: string | null;
  /**
   * A customer's paybill payment (Details "Pay Bill from …"), never an STK push's own line (those read
   * "Pay Bill Online from …"). False when the details do not say.
   */
  paybill: boolean;
}

export class StatementFileError extends Error {}

const RECEIPT = /^[A-Z0-9]{10}$/;
const HEADER = {
  receipt: 'receipt no.',
  completed: 'completion time',
  details: 'details',
  paidIn: 'paid in',
  status: 'transaction status',
  otherParty: 'other party info',
  account: 'a/c no.',
} as const;

type Cell = string | number | Date | null;

const norm = (v: Cell) => (v instanceof Date ? v.toISOString() : String(v ?? '')).trim();

/**
 * Reads an M-Pesa organisation statement as downloaded from the M-Pesa Org Portal, CSV or xlsx: the
 * table starts at the row holding `Receipt No.` (the portal puts the account's details above it) and
 * needs `Receipt No.`, `Completion Time`, `Details` and `Paid In`; the account number comes from
 * `A/C No.`, else from `Details` ("… Acc. CARD-1"). Lines without money in (payments out, charges) and
 * lines not `Completed` are skipped. Any other bad line refuses the whole file, naming the line.
 */
export async function readStatement(file: Buffer, filename: string): Promise<StatementEntry[]> {
  const xlsx = filename.toLowerCase().endsWith('.xlsx') || file.subarray(0, 2).toString('latin1') === 'PK';
  const rows = xlsx ? await xlsxRows(file) : csvRows(file.toString('utf8').replace(/^\uFEFF/, ''));
  const headerAt = rows.findIndex((r) => r.some((c) => norm(c).toLowerCase() === HEADER.receipt));
  if (headerAt < 0)
    throw new StatementFileError('No "Receipt No." header row: is this an M-Pesa organisation statement?');
  const header = rows[headerAt]!.map((c) => norm(c).toLowerCase());
  const col = (name: string) => header.indexOf(name);
  for (const needed of [HEADER.completed, HEADER.details, HEADER.paidIn]) {
    if (col(needed) < 0) throw new StatementFileError(`The statement has no "${needed}" column`);
  }
  const entries = new Map<string, StatementEntry>();
  rows.slice(headerAt + 1).forEach((row, i) => {
    const line = headerAt + i + 2;
    const at = (name: string): Cell => (col(name) >= 0 ? (row[col(name)] ?? null) : null);
    const receipt = norm(at(HEADER.receipt));
    if (!receipt && row.every((c) => !norm(c))) return;
    const paidInText = norm(at(HEADER.paidIn)).replace(/,/g, '');
    if (!paidInText || Number(paidInText) === 0) return;
    const status = norm(at(HEADER.status));
    if (status && status.toLowerCase() !== 'completed') return;
    if (!RECEIPT.test(receipt))
      throw new StatementFileError(`Line ${line}: "${receipt}" is not an M-Pesa receipt number`);
    if (!/^\d{1,12}(\.\d{1,2})?$/.test(paidInText) || Number(paidInText) <= 0) {
      throw new StatementFileError(`Line ${line}: Paid In "${paidInText}" is not an amount`);
    }
    const completedAt = eatTime(at(HEADER.completed));
    if (!completedAt) throw new StatementFileError(`Line ${line}: Completion Time is not a date and time`);
    const details = norm(at(HEADER.details));
    const account = norm(at(HEADER.account)) || (/\bAcc\.?\s*(\S+)\s*$/i.exec(details)?.[1] ?? '');
    const party = /^(\d{9,15})\b/.exec(norm(at(HEADER.otherParty)));
    entries.set(receipt, {
      receipt,
      completedAt,
      amountCents: Math.round(Number(paidInText) * 100),
      accountReference: account,
      msisdn: party ? party[1]! : null,
      paybill: /^pay ?bill from\b/i.test(details),
    });
  });
  return [...entries.values()];
}

/** A statement time, written in East Africa Time (UTC+3): `YYYY-MM-DD HH:mm:ss`, `DD-MM-YYYY …` or a date cell. */
function eatTime(value: Cell): Date | null {
  // A spreadsheet date cell holds the wall-clock time as if it were UTC.
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : new Date(value.getTime() - 3 * 3600_000);
  const text = norm(value);
  let m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text);
  let parts: number[] | null = m ? [m[1], m[2], m[3], m[4], m[5], m[6] ?? '0'].map(Number) : null;
  if (!parts) {
    m = /^(\d{2})[-/](\d{2})[-/](\d{4})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text);
    parts = m ? [m[3], m[2], m[1], m[4], m[5], m[6] ?? '0'].map(Number) : null;
  }
  if (!parts) return null;
  const [y, mo, d, h, mi, s] = parts as [number, number, number, number, number, number];
  const at = new Date(Date.UTC(y, mo - 1, d, h - 3, mi, s));
  return Number.isNaN(at.getTime()) || mo < 1 || mo > 12 || d < 1 || d > 31 ? null : at;
}

/** RFC 4180 CSV: quoted fields with doubled quotes, CRLF or LF. */
function csvRows(text: string): Cell[][] {
  const rows: Cell[][] = [];
  let row: Cell[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field || row.length) rows.push([...row, field]);
  return rows;
}

async function xlsxRows(file: Buffer): Promise<Cell[][]> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(file as unknown as ArrayBuffer);
  } catch {
    throw new StatementFileError('The file is not a readable xlsx workbook');
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw new StatementFileError('The workbook has no sheet');
  const rows: Cell[][] = [];
  sheet.eachRow({ includeEmpty: true }, (row) => {
    const cells: Cell[] = [];
    for (let c = 1; c <= row.cellCount; c++) {
      const v = row.getCell(c).value;
      cells.push(
        v === null || v === undefined
          ? null
          : v instanceof Date || typeof v === 'number' || typeof v === 'string'
            ? v
            : String((v as { text?: string; result?: unknown }).text ?? (v as { result?: unknown }).result ?? ''),
      );
    }
    rows.push(cells);
  });
  return rows;
}
