import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { EXPORT_FILE_NAME, type CardExportQuery, type CoinExportQuery } from '@wv/contracts';
import type { Response } from 'express';
import type { Actor } from '../common/actor.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { TransactionRepository, type SaleKind } from './transaction.repository.js';
import { TransactionService } from './transaction.service.js';
import { ExportAbandoned, ExportSlots, type ExportLimits } from './export-slots.js';
import { cutWhenIdle, streamXlsxExport } from './xlsx-export.runner.js';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** Each export holds a database connection and a worker thread for its whole length: bound them. */
const EXPORT_LIMITS: ExportLimits = { slots: 4, perAccount: 2, queue: 8, maxWaitMs: 60_000 };

/**
 * Streams `table_data.xlsx` (docs/rest-api.md, "Details") from a server-side cursor with backpressure: the memory of
 * an export does not grow with its rows (see writeXlsxTable), and the spreadsheet is built off the
 * API's event loop (see streamXlsxExport). The slots are shared fairly between accounts (ExportSlots),
 * and a download whose client stops reading is cut after EXPORT_IDLE_TIMEOUT_MS (cutWhenIdle), so
 * that clients who never read cannot keep other tenants' exports waiting.
 */
@Injectable()
export class TransactionExportService implements OnApplicationShutdown {
  private readonly logger = new Logger(TransactionExportService.name);
  private readonly slots = new ExportSlots(EXPORT_LIMITS);

  constructor(
    private readonly transactions: TransactionService,
    private readonly repository: TransactionRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Exports running and waiting for a slot in this process. */
  get load(): { running: number; waiting: number } {
    return this.slots.stats;
  }

  async stream(
    actor: Actor,
    machineId: string,
    kind: SaleKind,
    q: CardExportQuery | CoinExportQuery,
    res: Response,
  ): Promise<void> {
    // Scope first: a foreign machine is a normal 404 body, before any byte of the file.
    const filter = await this.transactions.filterFor(actor, machineId, kind, q);
    const gone = new AbortController();
    const onClose = () => gone.abort();
    res.once('close', onClose);
    if (res.destroyed) gone.abort();
    let release: () => void;
    try {
      release = await this.slots.acquire(actor.userId, gone.signal);
    } catch (error) {
      if (error instanceof ExportAbandoned) return;
      throw error;
    } finally {
      res.off('close', onClose);
    }
    const stopWatching = cutWhenIdle(res, this.config.exportIdleTimeoutMs, () =>
      this.logger.warn(`Export of ${machineId} cut: its client took nothing for ${this.config.exportIdleTimeoutMs} ms`),
    );
    try {
      if (res.destroyed) return; // gave up while waiting for a slot
      res.status(200);
      res.setHeader('Content-Type', XLSX_TYPE);
      res.setHeader('Content-Disposition', `attachment; filename="${EXPORT_FILE_NAME}"`);
      res.setHeader('Cache-Control', 'no-store');
      const job = {
        kind,
        statement: this.repository.exportStatement(actor, filter),
        // The worker thread's own connection goes where the repository's reads go: the replica when set.
        databaseUrl: this.config.databaseReadUrl ?? this.config.databaseUrl,
      };
      await streamXlsxExport(job, res, () => this.repository.openExportCursor(actor, filter));
    } catch (error) {
      if (!res.headersSent) {
        // Nothing has gone out (the read database refused the cursor): the answer is an error body, not a file.
        res.removeHeader('Content-Type');
        res.removeHeader('Content-Disposition');
        throw error;
      }
      // Too late for an error body: cut the download so that the client sees it incomplete.
      this.logger.error(`Export of ${machineId} failed after it started: ${(error as Error).message}`);
      res.destroy(error as Error);
    } finally {
      stopWatching();
      release();
    }
  }

  onApplicationShutdown(): void {
    this.slots.close();
  }
}
