import { Injectable } from '@nestjs/common';
import { ErrorCode, type ErrorBody } from '@wv/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { AppError } from '../common/app-error.js';
import { errorBody } from '../common/error-body.js';
import { IdempotencyRepository, type StoredAnswer } from './idempotency.repository.js';

/** One money call as the HTTP layer saw it (see idempotency-key.decorator.ts). */
export interface IdempotentCall {
  /** The Idempotency-Key header, or null when the client sent none. */
  key: string | null;
  callerId: string;
  /** SHA-256 of the route, its path parameters and its parsed body. */
  requestHash: string;
  /** The route's success status, stored with the answer. */
  successStatus: number;
  /** Tells the client that this answer is a replay (header `Idempotent-Replayed: true`). */
  markReplayed(): void;
}

export interface MoneyOutcome<T> {
  body: T;
  /** Domain events: run only after the commit that made them true, and never for a replay. */
  afterCommit?: () => void;
}

/**
 * Runs a money movement in one transaction together with its Idempotency-Key: the key, the request's
 * hash and the answer are committed with the movement, or not at all. The same key with the same
 * request replays the first answer (success or refusal, status and body); with another request it is
 * refused with 422. A 5xx is never stored: nothing committed, so the client may retry.
 */
@Injectable()
export class IdempotencyService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly keys: IdempotencyRepository,
  ) {}

  async run<T>(call: IdempotentCall, work: (m: EntityManager) => Promise<MoneyOutcome<T>>): Promise<T> {
    if (call.key === null) {
      const outcome = await this.dataSource.transaction(work);
      outcome.afterCommit?.();
      return outcome.body;
    }
    const key = call.key;
    type Result =
      | { kind: 'done'; outcome: MoneyOutcome<T> }
      | { kind: 'refused'; error: AppError }
      | { kind: 'replay'; stored: StoredAnswer };
    const result = await this.dataSource.transaction(async (m): Promise<Result> => {
      if (!(await this.keys.claim(m, call.callerId, key, call.requestHash))) {
        const stored = (await this.keys.find(m, call.callerId, key))!;
        if (stored.requestHash !== call.requestHash) throw new AppError(ErrorCode.IdempotencyKeyReused);
        return { kind: 'replay', stored };
      }
      try {
        // A savepoint, so that a refused movement leaves nothing behind but its stored answer.
        const outcome = await m.transaction(work);
        await this.keys.saveAnswer(m, call.callerId, key, call.successStatus, outcome.body);
        return { kind: 'done', outcome };
      } catch (error) {
        if (!(error instanceof AppError) || error.status >= 500) throw error;
        await this.keys.saveAnswer(m, call.callerId, key, error.status, errorBody(error));
        return { kind: 'refused', error };
      }
    });
    if (result.kind === 'done') {
      result.outcome.afterCommit?.();
      return result.outcome.body;
    }
    if (result.kind === 'refused') throw result.error;
    call.markReplayed();
    const { statusCode, response } = result.stored;
    if (statusCode !== null && statusCode >= 400) {
      const body = response as ErrorBody;
      throw new AppError(body.code as ErrorCode, body.message, body.fields);
    }
    return response as T;
  }
}
