import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager, type ObjectLiteral, type SelectQueryBuilder } from 'typeorm';
import type { Actor } from '../common/actor.js';
import { scopeAttendants } from '../common/scope.js';
import { centsToDecimal, toCents } from '../money/money.js';

export type FloatStatus = 'pending' | 'approved' | 'rejected';

export interface StoredFloatRequest {
  id: string;
  attendantId: string;
  requestedCents: number;
  approvedCents: number | null;
  status: FloatStatus;
  requestedAt: Date;
  decidedAt: Date | null;
}

export interface AttendantRef {
  id: string;
  name: string;
  managerId: string | null;
}

const COLUMNS = `r.id, r.attendant_id AS "attendantId", r.requested_amount::text AS requested,
  r.approved_amount::text AS approved, r.status, r.requested_at AS "requestedAt", r.decided_at AS "decidedAt"`;

type FloatRequestRecord = Omit<StoredFloatRequest, 'requestedCents' | 'approvedCents'> & {
  requested: string;
  approved: string | null;
};
const toRequest = ({ requested, approved, ...r }: FloatRequestRecord): StoredFloatRequest => ({
  ...r,
  requestedCents: toCents(requested),
  approvedCents: approved === null ? null : toCents(approved),
});

/**
 * The only place that builds queries on float requests. Reads are scoped by the requesting attendant
 * (scopeAttendants): a manager sees their attendants' requests, an attendant their own. Decisions are
 * conditional updates on `status = 'pending'`, so a request is decided once whatever the races.
 */
@Injectable()
export class FloatRepository {
  constructor(private readonly dataSource: DataSource) {}

  private scoped(actor: Actor, m: EntityManager = this.dataSource.manager): SelectQueryBuilder<ObjectLiteral> {
    const qb = m.createQueryBuilder().from('float_requests', 'r').innerJoin('users', 'u', 'u.id = r.attendant_id');
    return scopeAttendants(qb, actor, 'u');
  }

  /** An active attendant in the actor's scope, with the name shown to their manager. */
  async findAttendant(m: EntityManager, actor: Actor, attendantId: string): Promise<AttendantRef | null> {
    const qb = m
      .createQueryBuilder()
      .select(`u.id AS id, u.first_name || ' ' || u.last_name AS name, u.manager_id AS "managerId"`)
      .from('users', 'u')
      .where('u.id = :attendantId AND u.deleted_at IS NULL', { attendantId });
    return (await scopeAttendants(qb, actor, 'u').getRawOne<AttendantRef>()) ?? null;
  }

  async insert(m: EntityManager, attendantId: string, amountCents: number): Promise<StoredFloatRequest> {
    const rows: FloatRequestRecord[] = await m.query(
      `WITH r AS (INSERT INTO float_requests (attendant_id, requested_amount) VALUES ($1, $2::numeric) RETURNING *)
       SELECT ${COLUMNS} FROM r`,
      [attendantId, centsToDecimal(amountCents)],
    );
    return toRequest(rows[0]!);
  }

  /** The actor's requests (an attendant: their own), newest first. */
  async listVisible(actor: Actor): Promise<StoredFloatRequest[]> {
    const rows = await this.scoped(actor)
      .select(COLUMNS)
      .orderBy('r.requested_at', 'DESC')
      .addOrderBy('r.id', 'DESC')
      .getRawMany<FloatRequestRecord>();
    return rows.map(toRequest);
  }

  /** Pending requests of active attendants in scope, oldest first, with the attendant's name. */
  async listPending(actor: Actor): Promise<(StoredFloatRequest & { attendantName: string })[]> {
    const rows = await this.scoped(actor)
      .select(COLUMNS)
      .addSelect(`u.first_name || ' ' || u.last_name`, 'attendantName')
      .andWhere(`r.status = 'pending' AND u.deleted_at IS NULL`)
      .orderBy('r.requested_at', 'ASC')
      .addOrderBy('r.id', 'ASC')
      .getRawMany<FloatRequestRecord & { attendantName: string }>();
    return rows.map((r) => ({ ...toRequest(r), attendantName: r.attendantName }));
  }

  async findVisible(m: EntityManager, actor: Actor, requestId: string): Promise<StoredFloatRequest | null> {
    const row = await this.scoped(actor, m)
      .select(COLUMNS)
      .andWhere('r.id = :requestId', { requestId })
      .getRawOne<FloatRequestRecord>();
    return row ? toRequest(row) : null;
  }

  /**
   * Locks the attendant's oldest pending request. A request another transaction is deciding makes this
   * wait; once that one committed, PostgreSQL re-checks `status` and moves on to the next pending one,
   * so concurrent oldest-first approvals behave as if they ran one after the other.
   */
  async lockOldestPending(m: EntityManager, attendantId: string): Promise<StoredFloatRequest | null> {
    const rows: FloatRequestRecord[] = await m.query(
      `SELECT ${COLUMNS} FROM float_requests r WHERE r.attendant_id = $1 AND r.status = 'pending'
       ORDER BY r.requested_at, r.id LIMIT 1 FOR UPDATE`,
      [attendantId],
    );
    return rows.length ? toRequest(rows[0]!) : null;
  }

  /** Approves only a pending request; null when it is no longer pending (a retry or another manager won). */
  async approve(m: EntityManager, requestId: string, amountCents: number, deciderId: string) {
    return this.decide(m, requestId, 'approved', amountCents, deciderId);
  }

  async reject(m: EntityManager, requestId: string, deciderId: string) {
    return this.decide(m, requestId, 'rejected', null, deciderId);
  }

  /** The manager of an attendant, removed or not (for decisions taken on the manager's behalf). */
  async managerOf(m: EntityManager, attendantId: string): Promise<string | null> {
    const rows: { managerId: string | null }[] = await m.query(
      `SELECT manager_id AS "managerId" FROM users WHERE id = $1`,
      [attendantId],
    );
    return rows[0]?.managerId ?? null;
  }

  /** Removal of an attendant: their pending requests are rejected on their manager's behalf. */
  async rejectAllPending(m: EntityManager, attendantId: string): Promise<StoredFloatRequest[]> {
    const rows: FloatRequestRecord[] = await m.query(
      `WITH r AS (
         UPDATE float_requests f SET status = 'rejected', decided_at = clock_timestamp(),
           decided_by = (SELECT manager_id FROM users WHERE id = f.attendant_id)
         WHERE f.attendant_id = $1 AND f.status = 'pending' RETURNING f.*)
       SELECT ${COLUMNS} FROM r ORDER BY r.requested_at`,
      [attendantId],
    );
    return rows.map(toRequest);
  }

  private async decide(
    m: EntityManager,
    requestId: string,
    status: 'approved' | 'rejected',
    amountCents: number | null,
    deciderId: string,
  ): Promise<StoredFloatRequest | null> {
    const rows: FloatRequestRecord[] = await m.query(
      `WITH r AS (
         UPDATE float_requests SET status = $2, approved_amount = $3::numeric, decided_at = clock_timestamp(), decided_by = $4
         WHERE id = $1 AND status = 'pending' RETURNING *)
       SELECT ${COLUMNS} FROM r`,
      [requestId, status, amountCents === null ? null : centsToDecimal(amountCents), deciderId],
    );
    return rows.length ? toRequest(rows[0]!) : null;
  }
}
