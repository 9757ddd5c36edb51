/**
 * Worker thread of an export (see xlsx-export.runner.ts): reads the rows through its own database
 * connection and cursor, writes the workbook with exceljs, and posts the bytes to the main thread one
 * chunk at a time, each acknowledged once the HTTP response took it (backpressure across threads).
 */
import { Writable } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import pg from 'pg';
import { openSqlCursor } from './export-cursor.repository.js';
import type { ExportRow, SaleKind } from './transaction.repository.js';
import { EXPORT_COLUMNS, exportCells } from './transaction-export.layout.js';
import { writeXlsxTable } from './xlsx-table.writer.js';

export type ToWorker = { type: 'ack' };
export type FromWorker = { type: 'chunk'; bytes: Uint8Array } | { type: 'done' };
export interface ExportWorkerData {
  kind: SaleKind;
  statement: [string, unknown[]];
  databaseUrl: string;
  batchSize: number;
}

const port = parentPort!;
const { kind, statement, databaseUrl, batchSize } = workerData as ExportWorkerData;
const acks: (() => void)[] = [];
port.on('message', () => acks.shift()?.());

const out = new Writable({
  highWaterMark: 64 * 1024,
  write(chunk: Buffer, _encoding, done) {
    acks.push(() => done());
    port.postMessage({ type: 'chunk', bytes: chunk } satisfies FromWorker);
  },
});

const client = new pg.Client({ connectionString: databaseUrl, application_name: 'wv-export' });
await client.connect();
try {
  const cursor = await openSqlCursor<ExportRow>(
    async (sql, params) => (await client.query(sql, params)).rows,
    statement,
  );
  await writeXlsxTable(out, EXPORT_COLUMNS[kind], () => cursor.next(batchSize), exportCells(kind), batchSize);
  await cursor.close();
} finally {
  await client.end();
}
await new Promise<void>((resolve, reject) =>
  out.writableFinished ? resolve() : out.once('finish', resolve).once('error', reject),
);
port.postMessage({ type: 'done' } satisfies FromWorker);
