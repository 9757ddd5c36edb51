import type { Response } from 'express';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { SqlCursor } from './export-cursor.repository.js';
import type { ExportRow, SaleKind } from './transaction.repository.js';
import { EXPORT_COLUMNS, exportCells } from './transaction-export.layout.js';
import type { ExportWorkerData, FromWorker, ToWorker } from './xlsx-export.worker.js';
import { writeXlsxTable } from './xlsx-table.writer.js';

const WORKER = new URL('./xlsx-export.worker.js', import.meta.url);
const BATCH = 1000;

/**
 * The worker's heap: a small young generation keeps the garbage of a million rows from being promoted
 * and piling up between major collections; the old generation is a hard cap, so a runaway export ends
 * that export (the worker dies), never the API process.
 */
const RESOURCE_LIMITS = { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 192 };

export interface XlsxExportJob {
  kind: SaleKind;
  /** The rows' statement, built and scoped by the repository. */
  statement: [string, unknown[]];
  databaseUrl: string;
}

/**
 * Writes an export to `res`. Reading a million rows and building their spreadsheet is tens of
 * seconds of CPU and a steady stream of garbage: it runs in a worker thread with its own connection,
 * so the API's event loop keeps answering while an export streams and the export's memory is bounded
 * (RESOURCE_LIMITS); this thread only passes the bytes on, acknowledging each chunk once the response
 * took it. Without the compiled worker (tests running the TypeScript sources) the same writer runs
 * here over `openCursor`. Resolves false when the client went away.
 */
export async function streamXlsxExport(
  job: XlsxExportJob,
  res: Response,
  openCursor: () => Promise<SqlCursor<ExportRow>>,
  workerFile: URL = WORKER,
): Promise<boolean> {
  if (!existsSync(fileURLToPath(workerFile))) {
    const cursor = await openCursor();
    try {
      return await writeXlsxTable(
        res,
        EXPORT_COLUMNS[job.kind],
        () => cursor.next(BATCH),
        exportCells(job.kind),
        BATCH,
      );
    } finally {
      await cursor.close();
    }
  }
  const workerData: ExportWorkerData = { ...job, batchSize: BATCH };
  const worker = new Worker(workerFile, { workerData, resourceLimits: RESOURCE_LIMITS });
  const ack = () => worker.postMessage({ type: 'ack' } satisfies ToWorker);
  return new Promise<boolean>((resolve, reject) => {
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      res.off('close', onClose);
      // A worker cut short takes its connection with it: PostgreSQL rolls the cursor back.
      void worker.terminate();
      outcome();
    };
    const onClose = () => {
      if (!res.writableFinished) settle(() => resolve(false));
    };
    res.on('close', onClose);
    worker.on('error', (error) => settle(() => reject(error)));
    worker.on('exit', (code) => settle(() => reject(new Error(`The export worker stopped (exit code ${code})`))));
    worker.on('message', (message: FromWorker) => {
      if (message.type === 'chunk') {
        const bytes = Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength);
        if (res.write(bytes)) ack();
        else res.once('drain', ack);
      } else {
        res.end(() => settle(() => resolve(true)));
      }
    });
  });
}

/**
 * Cuts `res` once its client has taken nothing for `idleMs` while bytes wait for it (the response
 * needs a drain that does not come): a client that sends the request and never reads the body would
 * otherwise hold its export's slot, database connection and worker for good. An export still
 * preparing its first bytes is not idle. Answers a function that stops watching.
 */
export function cutWhenIdle(res: Response, idleMs: number, onCut: () => void): () => void {
  let waitingSince: number | undefined;
  const progressed = () => {
    waitingSince = undefined;
  };
  const stop = () => {
    clearInterval(timer);
    res.off('drain', progressed);
  };
  const check = () => {
    if (!res.writableNeedDrain) {
      progressed();
      return;
    }
    waitingSince ??= Date.now();
    if (Date.now() - waitingSince < idleMs) return;
    stop();
    onCut();
    res.destroy();
  };
  res.on('drain', progressed);
  const timer = setInterval(check, Math.min(1_000, Math.max(25, Math.floor(idleMs / 4))));
  timer.unref();
  return stop;
}
