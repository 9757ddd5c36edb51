import { Injectable } from '@nestjs/common';
import { buildSalesTopic, ErrorCode, type IngestResponse } from '@wv/contracts';
import { AppError } from '../common/app-error.js';
import { parseSalesPayload } from './sale-parser.js';
import { SaleIngestQueue } from './sale-ingest.queue.js';

/**
 * POST /machines/{espId}/sales: validates at the edge to answer `{accepted, rejected}`, then queues
 * the raw payload durably (the worker stores good items and dead-letters bad ones) before 202.
 */
@Injectable()
export class SaleRestIngestService {
  constructor(private readonly queue: SaleIngestQueue) {}

  async accept(espId: string, body: unknown): Promise<IngestResponse> {
    if (body === undefined) {
      const message = 'The body must be a sale or an array of sales';
      throw new AppError(ErrorCode.ValidationFailed, message, [{ path: 'body', message }]);
    }
    const receivedAt = new Date();
    const payload = JSON.stringify(body);
    const { sales, rejections } = parseSalesPayload(espId, payload, receivedAt);
    await this.queue.enqueue([
      { espId, topic: buildSalesTopic(espId), payload, receivedAt: receivedAt.toISOString(), source: 'rest' },
    ]);
    if (sales.length === 0) {
      // Nothing good: a clear 400 naming each bad item; the items are still kept as dead letters.
      const fields = rejections.map((r) => ({ path: r.index === null ? 'body' : `[${r.index}]`, message: r.reason }));
      throw new AppError(ErrorCode.ValidationFailed, fields.map((f) => `${f.path}: ${f.message}`).join('; '), fields);
    }
    return { accepted: sales.length, rejected: rejections.map((r) => ({ index: r.index ?? 0, reason: r.reason })) };
  }
}
