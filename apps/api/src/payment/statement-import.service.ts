import { Injectable } from '@nestjs/common';
import { ErrorCode, type StatementImportResponse } from '@wv/contracts';
import { AppError } from '../common/app-error.js';
import { PaymentSettlementService } from './payment-settlement.service.js';
import { readStatement, StatementFileError, type StatementEntry } from './statement-file.js';

/** The uploaded statement as the HTTP layer hands it over. */
export interface UploadedStatement {
  buffer: Buffer;
  originalname: string;
}

/**
 * Statement reconciliation (docs/mobile-money.md, "Statements"): every money-in receipt of an M-Pesa
 * organisation statement that this server never saw is credited to the card its account number names,
 * or becomes unmatched. The file is read and checked whole before anything is credited; each receipt
 * then settles in its own transaction, so an import cut short can simply be run again.
 */
@Injectable()
export class StatementImportService {
  constructor(private readonly settlement: PaymentSettlementService) {}

  async import(file: UploadedStatement | undefined): Promise<StatementImportResponse> {
    if (!file?.buffer?.length) {
      const message = 'attach the statement (CSV or xlsx) in the multipart field "file"';
      throw new AppError(ErrorCode.ValidationFailed, `file: ${message}`, [{ path: 'file', message }]);
    }
    let entries: StatementEntry[];
    try {
      entries = await readStatement(file.buffer, file.originalname ?? '');
    } catch (error) {
      if (!(error instanceof StatementFileError)) throw error;
      throw new AppError(ErrorCode.ValidationFailed, `file: ${error.message}`, [
        { path: 'file', message: error.message },
      ]);
    }
    const answer = { seen: entries.length, credited: 0, unmatched: 0 };
    for (const entry of entries) {
      const outcome = await this.settlement.settlePaybill('statement', entry, {
        ...entry,
        completedAt: entry.completedAt.toISOString(),
      });
      if (outcome === 'credited') answer.credited++;
      if (outcome === 'unmatched') answer.unmatched++;
    }
    return answer;
  }
}
