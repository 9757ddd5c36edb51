import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { SeqGap } from './seq-ranges.js';

export interface LockedSeqState {
  espId: string;
  lastSeq: number;
}

export interface SeqStateChange {
  espId: string;
  lastSeq: number;
  reused: number;
  restarted: boolean;
  removed: SeqGap[];
  added: SeqGap[];
}

/** The only place that builds queries on machine_seq_state and machine_seq_gaps. */
@Injectable()
export class SequenceRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Creates the missing state rows and locks the machines' rows in esp_id order, after the card locks
   * of the same ingest transaction, so that concurrent batches never wait on each other in a circle.
   */
  async lockStates(m: EntityManager, espIds: string[]): Promise<LockedSeqState[]> {
    const sorted = [...espIds].sort();
    await m.query(
      `INSERT INTO machine_seq_state (esp_id) SELECT unnest($1::text[]) ORDER BY 1 ON CONFLICT (esp_id) DO NOTHING`,
      [sorted],
    );
    const rows: { espId: string; lastSeq: string }[] = await m.query(
      `SELECT esp_id AS "espId", last_seq::text AS "lastSeq" FROM machine_seq_state
       WHERE esp_id = ANY($1) ORDER BY esp_id FOR UPDATE`,
      [sorted],
    );
    return rows.map((r) => ({ espId: r.espId, lastSeq: Number(r.lastSeq) }));
  }

  async gapsOf(m: EntityManager, espIds: string[]): Promise<Map<string, SeqGap[]>> {
    const gaps = new Map<string, SeqGap[]>();
    if (espIds.length === 0) return gaps;
    const rows: { espId: string; from: string; to: string; firstSeenAt: Date }[] = await m.query(
      `SELECT esp_id AS "espId", from_seq::text AS "from", to_seq::text AS "to", first_seen_at AS "firstSeenAt"
       FROM machine_seq_gaps WHERE esp_id = ANY($1) ORDER BY esp_id, from_seq`,
      [espIds],
    );
    for (const r of rows) {
      const list = gaps.get(r.espId) ?? gaps.set(r.espId, []).get(r.espId)!;
      list.push({ from: Number(r.from), to: Number(r.to), firstSeenAt: r.firstSeenAt });
    }
    return gaps;
  }

  /** Writes the changes of one batch: removed gaps first (a shrunk gap may keep its `from_seq`), then the new ones. */
  async apply(m: EntityManager, changes: SeqStateChange[]): Promise<void> {
    if (changes.length === 0) return;
    const removed = changes.flatMap((c) => c.removed.map((g) => ({ espId: c.espId, from: g.from })));
    const added = changes.flatMap((c) => c.added.map((g) => ({ espId: c.espId, ...g })));
    if (removed.length) {
      await m.query(
        `DELETE FROM machine_seq_gaps g USING unnest($1::text[], $2::bigint[]) AS r(esp_id, from_seq)
         WHERE g.esp_id = r.esp_id AND g.from_seq = r.from_seq`,
        [removed.map((r) => r.espId), removed.map((r) => String(r.from))],
      );
    }
    if (added.length) {
      await m.query(
        `INSERT INTO machine_seq_gaps (esp_id, from_seq, to_seq, first_seen_at)
         SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::timestamptz[])`,
        [
          added.map((a) => a.espId),
          added.map((a) => String(a.from)),
          added.map((a) => String(a.to)),
          added.map((a) => a.firstSeenAt),
        ],
      );
    }
    await m.query(
      `UPDATE machine_seq_state s SET last_seq = c.last_seq, reused_seqs = s.reused_seqs + c.reused,
              restarts = s.restarts + c.restarts, updated_at = now()
       FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::int[]) AS c(esp_id, last_seq, reused, restarts)
       WHERE s.esp_id = c.esp_id`,
      [
        changes.map((c) => c.espId),
        changes.map((c) => String(c.lastSeq)),
        changes.map((c) => c.reused),
        changes.map((c) => (c.restarted ? 1 : 0)),
      ],
    );
  }

  /**
   * The sales each machine says it still holds in flash (its status payload's `queued`). Rows are written in esp_id
   * order, as the ingest locks them (lockStates), so that the two never wait on each other in a circle.
   */
  async setQueued(queued: Map<string, number>): Promise<void> {
    if (queued.size === 0) return;
    const espIds = [...queued.keys()].sort();
    await this.dataSource.query(
      `INSERT INTO machine_seq_state AS s (esp_id, queued, queued_at)
       SELECT esp_id, queued, now() FROM unnest($1::text[], $2::int[]) AS u(esp_id, queued) ORDER BY esp_id
       ON CONFLICT (esp_id) DO UPDATE SET queued = excluded.queued, queued_at = excluded.queued_at`,
      [espIds, espIds.map((id) => queued.get(id)!)],
    );
  }

  /** One snapshot: the machine's seq state, its gaps, and the time of its newest sale. */
  async syncOf(
    espId: string,
  ): Promise<{ lastSeq: number; queued: number | null; missing: [number, number][]; lastSaleAt: Date | null }> {
    const [row] = await this.dataSource.query(
      `SELECT coalesce((SELECT last_seq FROM machine_seq_state WHERE esp_id = $1), 0)::text AS "lastSeq",
              (SELECT queued FROM machine_seq_state WHERE esp_id = $1) AS queued,
              coalesce((SELECT json_agg(json_build_array(from_seq::text, to_seq::text) ORDER BY from_seq)
                        FROM machine_seq_gaps WHERE esp_id = $1), '[]'::json) AS missing,
              -- one backward index scan per kind (sales_page_idx leads with esp_id, kind)
              greatest((SELECT max(sold_at) FROM sales WHERE esp_id = $1 AND kind = 'coin'),
                       (SELECT max(sold_at) FROM sales WHERE esp_id = $1 AND kind = 'card')) AS "lastSaleAt"`,
      [espId],
    );
    const r = row as { lastSeq: string; queued: number | null; missing: [string, string][]; lastSaleAt: Date | null };
    return {
      lastSeq: Number(r.lastSeq),
      queued: r.queued,
      missing: r.missing.map(([from, to]) => [Number(from), Number(to)]),
      lastSaleAt: r.lastSaleAt,
    };
  }
}
