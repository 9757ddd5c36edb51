import { EXPORT_SHEET_NAME } from '@wv/contracts';
import ExcelJS from 'exceljs';
import { once } from 'node:events';
import { setImmediate } from 'node:timers/promises';
import type { Writable } from 'node:stream';

/** A column: its title, width, and whether its cells are dates. */
export interface XlsxColumn {
  title: string;
  width: number;
  date?: boolean;
}

/**
 * exceljs registers a cell's style by identity: one shared object per column style keeps that a
 * lookup instead of a serialisation per cell, which doubles the rows per second.
 */
const PLAIN: Partial<ExcelJS.Style> = {};
const HEADER: Partial<ExcelJS.Style> = { font: { bold: true } };
const DATE: Partial<ExcelJS.Style> = { numFmt: 'yyyy-mm-dd hh:mm:ss' };

/**
 * Text a spreadsheet would run as a formula (=, +, -, @, tab or CR first: OWASP "CSV injection") is
 * kept as text behind a leading apostrophe.
 */
export function escapeCell(text: string | null): string | null {
  return text !== null && /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** Whether the reader went away before the file was complete. */
function gone(out: Writable): boolean {
  return out.destroyed || (out.closed && !out.writableFinished);
}

/** Waits until `stream` has passed on what it holds ('drain'), or the reader `out` has gone. */
async function drainOrGone(stream: Writable, out: Writable): Promise<void> {
  if (gone(out)) return;
  const done = new AbortController();
  try {
    await Promise.race([once(stream, 'drain', { signal: done.signal }), once(out, 'close', { signal: done.signal })]);
  } finally {
    done.abort();
  }
}

/**
 * Compression is the export's bottleneck once backpressure holds it to its pace: level 3 compresses
 * sales XML nearly as well as the default 6 at a good part more rows per second and less CPU.
 */
const COMPRESSION_LEVEL = 3;

/** XML waiting for compression above this is not added to (bytes; ~5,000 rows). */
const MAX_UNCOMPRESSED = 2 * 1024 * 1024;

/**
 * exceljs writes a sheet's XML into an internal buffer that pipes into the zip's compressor without
 * heeding its backpressure: when compression is slower than rows arrive, that pipe's queue would grow
 * with the rows. This is the queue (`StreamBuf` pipes into a PassThrough), or undefined if exceljs
 * changes shape, in which case only the reader's backpressure applies.
 */
function compressionQueue(sheet: ExcelJS.Worksheet): { stream: Writable; length: number } | undefined {
  const pipes = (sheet as unknown as { stream?: { pipes?: unknown[] } }).stream?.pipes;
  // archiver's streams are readable-stream 2: no `writableLength`, the state is `_writableState`.
  const queue = pipes?.[0] as (Writable & { _writableState?: { length?: number } }) | undefined;
  const length = queue?.writableLength ?? queue?._writableState?.length;
  return queue && typeof length === 'number' ? { stream: queue, length } : undefined;
}

/**
 * Writes one sheet (`Sheet1`) with a header row and the rows `fetch` yields in batches, with exceljs's
 * streaming writer: rows are committed to the zip stream as they come and never kept. The next batch
 * is fetched while this one is written; nothing more is fetched while compression or the reader `out`
 * is behind (backpressure), so memory stays flat however many rows there are. Resolves false when the
 * reader went away.
 */
export async function writeXlsxTable<R>(
  out: Writable,
  columns: XlsxColumn[],
  fetch: () => Promise<R[]>,
  toCells: (row: R, sn: number) => ExcelJS.CellValue[],
  batchSize: number,
): Promise<boolean> {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: true,
    // Shared strings would keep every distinct text of the file in memory until the end.
    useSharedStrings: false,
    zip: { zlib: { level: COMPRESSION_LEVEL } },
  });
  const sheet = workbook.addWorksheet(EXPORT_SHEET_NAME);
  sheet.columns = columns.map((c, i) => ({ key: String(i), width: c.width }));
  const styles = columns.map((c) => (c.date ? DATE : PLAIN));
  const header = sheet.addRow(columns.map((c) => c.title));
  header.eachCell((cell) => (cell.style = HEADER));
  header.commit();

  let sn = 0;
  let next = fetch();
  try {
    for (;;) {
      const rows = await next;
      // A short batch is the last one.
      next = rows.length === batchSize ? fetch() : Promise.resolve([]);
      for (const r of rows) {
        const row = sheet.addRow(toCells(r, ++sn));
        for (let c = 0; c < styles.length; c++) row.getCell(c + 1).style = styles[c]!;
        row.commit();
      }
      if (rows.length === 0 || gone(out)) break;
      // Let compression hand this batch on before deciding whether anything is full.
      await setImmediate();
      const queue = compressionQueue(sheet);
      if (queue && queue.length > MAX_UNCOMPRESSED) await drainOrGone(queue.stream, out);
      if (out.writableNeedDrain) await drainOrGone(out, out);
      if (gone(out)) break;
    }
  } finally {
    // The prefetch may still be running on the connection: let it end before the caller closes it.
    await next.catch(() => undefined);
  }
  if (gone(out)) return false;
  sheet.commit();
  await workbook.commit();
  return true;
}
