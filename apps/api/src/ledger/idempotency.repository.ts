import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

export interface StoredAnswer {
  requestHash: string;
  statusCode: number | null;
  response: unknown;
}

/** The only place that builds queries on idempotency keys. */
@Injectable()
export class IdempotencyRepository {
  /**
   * Claims a key for this transaction. When another transaction holds the same key uncommitted,
   * PostgreSQL makes this INSERT wait for it: a retry racing its original sees the original's answer
   * (after commit) or takes over the key (after rollback). True when this transaction owns the key.
   */
  async claim(m: EntityManager, callerId: string, key: string, requestHash: string): Promise<boolean> {
    const rows = await m.query(
      `INSERT INTO idempotency_keys (caller_id, key, request_hash) VALUES ($1, $2, $3)
       ON CONFLICT (caller_id, key) DO NOTHING RETURNING key`,
      [callerId, key, requestHash],
    );
    return rows.length > 0;
  }

  async find(m: EntityManager, callerId: string, key: string): Promise<StoredAnswer | null> {
    const rows: StoredAnswer[] = await m.query(
      `SELECT request_hash AS "requestHash", status_code AS "statusCode", response
       FROM idempotency_keys WHERE caller_id = $1 AND key = $2`,
      [callerId, key],
    );
    return rows[0] ?? null;
  }

  /** Deletes up to `limit` keys created before `cutoff`; returns how many went. */
  async purgeBefore(m: EntityManager, cutoff: Date, limit: number): Promise<number> {
    const [, count] = (await m.query(
      `DELETE FROM idempotency_keys WHERE ctid = ANY (ARRAY(
         SELECT ctid FROM idempotency_keys WHERE created_at < $1 ORDER BY created_at LIMIT $2))`,
      [cutoff, limit],
    )) as [unknown, number];
    return count;
  }

  async saveAnswer(m: EntityManager, callerId: string, key: string, statusCode: number, response: unknown) {
    await m.query(
      `UPDATE idempotency_keys SET status_code = $3, response = $4::jsonb WHERE caller_id = $1 AND key = $2`,
      [callerId, key, statusCode, JSON.stringify(response ?? null)],
    );
  }
}
