import { describe, expect, it } from '@jest/globals';
import ExcelJS from 'exceljs';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { escapeCell, writeXlsxTable } from './xlsx-table.writer.js';

/** A reader that takes nothing until `open()`: a client on a slow network, or one that stopped reading. */
function slowReader() {
  const chunks: Buffer[] = [];
  let held: (() => void)[] = [];
  let flowing = false;
  const out = new Writable({
    highWaterMark: 16 * 1024,
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk);
      if (flowing) done();
      else held.push(done);
    },
  });
  return {
    out,
    bytes: () => Buffer.concat(chunks),
    open() {
      flowing = true;
      held.forEach((done) => done());
      held = [];
    },
  };
}

const columns = [
  { title: 'SN', width: 8 },
  { title: 'Name', width: 12 },
  { title: 'Date', width: 20, date: true },
];
// Names that compress like real ones (random, not repeated), so that bytes reach the reader.
const batchOf = (start: number, size: number) =>
  Array.from({ length: size }, (_, i) => ({ n: start + i, name: randomBytes(8).toString('hex') }));

/** Resolves once `read()` has not changed for `quietMs` (or rejects after 5 s). */
async function settled(read: () => number, quietMs = 300): Promise<number> {
  const deadline = Date.now() + 5000;
  for (let last = read(); ;) {
    await new Promise((r) => setTimeout(r, quietMs));
    if (read() === last) return last;
    if (Date.now() > deadline) throw new Error('never settled');
    last = read();
  }
}

describe('writeXlsxTable', () => {
  it('fetches no further batch while the reader is not reading, and completes once it reads', async () => {
    const reader = slowReader();
    const total = 40_000;
    let fetched = 0;
    const fetch = async () => {
      const rows = batchOf(fetched, Math.min(1000, total - fetched));
      fetched += rows.length;
      return rows;
    };
    const names: string[] = [];
    const done = writeXlsxTable(
      reader.out,
      columns,
      fetch,
      (r, sn) => (names.push(r.name), [sn, r.name, new Date(Date.UTC(2026, 0, 1, 12))]),
      1000,
    );
    // The first batches fill the reader's buffer (and compression's); then the writer stops fetching.
    const stalledAt = await settled(() => fetched);
    expect(stalledAt).toBeLessThan(total / 2);

    reader.open();
    expect(await done).toBe(true);
    expect(fetched).toBe(total);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(reader.bytes() as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Sheet1')!;
    expect(sheet.rowCount).toBe(total + 1);
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(['SN', 'Name', 'Date']);
    expect((sheet.getRow(total + 1).values as unknown[]).slice(1)).toEqual([
      total,
      names.at(-1),
      new Date(Date.UTC(2026, 0, 1, 12)),
    ]);
  });

  it('stops and reports false when the reader goes away', async () => {
    const reader = slowReader();
    let fetches = 0;
    const done = writeXlsxTable(
      reader.out,
      columns,
      async () => (fetches++, batchOf(0, 1000)),
      (r, sn) => [sn, r.name, null],
      1000,
    );
    await new Promise((r) => setTimeout(r, 100));
    reader.out.destroy();
    expect(await done).toBe(false);
    const after = fetches;
    await new Promise((r) => setTimeout(r, 100));
    expect(fetches).toBe(after);
  });

  it('escapes text a spreadsheet would run as a formula and leaves other text alone', () => {
    expect(['=1+1', '+255', '-5', '@SUM(A1)', '\tx', '\rx'].map(escapeCell)).toEqual([
      "'=1+1",
      "'+255",
      "'-5",
      "'@SUM(A1)",
      "'\tx",
      "'\rx",
    ]);
    expect(['Amina', 'a=b', '', null].map(escapeCell)).toEqual(['Amina', 'a=b', '', null]);
  });
});
