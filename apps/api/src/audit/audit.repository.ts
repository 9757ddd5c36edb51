import { Injectable } from '@nestjs/common';
import type { AuditRow } from '@wv/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { redact } from './audit-redaction.js';

export type AuditEntity = AuditRow['entity'];

export interface AuditEntry {
  /** The signed-in user who made the change; null for machines and the system. */
  actorId: string | null;
  /** `<entity>.<verb>`, e.g. `user.created`, `float_request.approved`. */
  action: string;
  entity: AuditEntity;
  entityId: string;
  before: unknown;
  after: unknown;
}

/** A bound of the `at` filter: a business day in APP_TIMEZONE, or an exact instant. */
export type AuditBound = { date: string } | { instant: string };

export interface AuditFilter {
  actorId?: string;
  entity?: AuditEntity;
  from?: AuditBound;
  to?: AuditBound;
  page: number;
  limit: number;
  timezone: string;
}

/** The only place that builds queries on the audit trail. Rows are immutable (a trigger refuses changes). */
@Injectable()
export class AuditRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Written in the caller's transaction, so the trail holds exactly the changes that committed. */
  async record(m: EntityManager, ...entries: AuditEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await m.query(
      `INSERT INTO audit_log (actor_id, action, entity, entity_id, before, after)
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::jsonb[], $6::jsonb[])`,
      [
        entries.map((e) => e.actorId),
        entries.map((e) => e.action),
        entries.map((e) => e.entity),
        entries.map((e) => e.entityId),
        entries.map((e) => json(e.before)),
        entries.map((e) => json(e.after)),
      ],
    );
  }

  async list(filter: AuditFilter): Promise<{ data: AuditRow[]; total: number }> {
    const where: string[] = [];
    const params: unknown[] = [];
    const param = (v: unknown) => `$${params.push(v)}`;
    if (filter.actorId) where.push(`actor_id = ${param(filter.actorId)}`);
    if (filter.entity) where.push(`entity = ${param(filter.entity)}`);
    if (filter.from) {
      where.push(
        'date' in filter.from
          ? `at >= (${param(filter.from.date)}::date)::timestamp AT TIME ZONE ${param(filter.timezone)}`
          : `at >= ${param(filter.from.instant)}::timestamptz`,
      );
    }
    if (filter.to) {
      // A day bound is inclusive: everything before the next day's midnight in APP_TIMEZONE.
      where.push(
        'date' in filter.to
          ? `at < (${param(filter.to.date)}::date + 1)::timestamp AT TIME ZONE ${param(filter.timezone)}`
          : `at <= ${param(filter.to.instant)}::timestamptz`,
      );
    }
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const [{ total }] = await this.dataSource.query(`SELECT count(*)::int AS total FROM audit_log ${clause}`, params);
    const rows: (Omit<AuditRow, 'at'> & { at: Date })[] = await this.dataSource.query(
      `SELECT id::text, actor_id AS "actorId", action, entity, entity_id AS "entityId", before, after, at
       FROM audit_log ${clause} ORDER BY at DESC, id DESC LIMIT ${param(filter.limit)} OFFSET ${param((filter.page - 1) * filter.limit)}`,
      params,
    );
    return { data: rows.map((r) => ({ ...r, at: r.at.toISOString() })), total: total as number };
  }
}

function json(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(redact(value));
}
