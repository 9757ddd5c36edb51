import { Injectable, type OnModuleInit } from '@nestjs/common';
import {
  ErrorCode,
  type AssignFloatCommand,
  type FloatRequestRow,
  type FloatUpdatedEvent,
  type MessageResponse,
  type PendingFloatRequest,
  type RequestFloatCommand,
} from '@wv/contracts';
import type { EntityManager } from 'typeorm';
import type { Actor } from '../common/actor.js';
import { AppError } from '../common/app-error.js';
import { DomainEvents } from '../events/domain-events.js';
import { AuditTrail } from '../audit/audit-trail.js';
import { IdempotencyService, type IdempotentCall } from '../ledger/idempotency.service.js';
import { LedgerService } from '../ledger/ledger.service.js';
import { amountToCents, centsToAmount } from '../money/money.js';
import { AttendantService } from '../user/attendant.service.js';
import { FloatRepository, type StoredFloatRequest } from './float.repository.js';

type Decided = { attendantId: string; managerId: string; event: FloatUpdatedEvent };

/**
 * Float: cash an attendant may load onto cards, asked for by the attendant and approved (once) or
 * rejected by their manager. An approval credits the attendant's float account in the same
 * transaction as the request's status change and its ledger entry.
 */
@Injectable()
export class FloatService implements OnModuleInit {
  /** float.updated events of removals in flight, emitted once the removal committed. */
  private readonly rejectedOnRemoval = new Map<string, Decided[]>();

  constructor(
    private readonly requests: FloatRepository,
    private readonly ledger: LedgerService,
    private readonly audit: AuditTrail,
    private readonly idempotency: IdempotencyService,
    private readonly events: DomainEvents,
    private readonly attendants: AttendantService,
  ) {}

  /** Removing an attendant (docs/rest-api.md, "Details") rejects their pending requests, in the removal's transaction. */
  onModuleInit(): void {
    this.attendants.onRemoval((attendantId, m) => this.rejectAllOf(attendantId, m));
    this.events.on('user.removed', ({ userId }) => {
      for (const d of this.rejectedOnRemoval.get(userId) ?? []) this.events.emit('float.updated', d);
      this.rejectedOnRemoval.delete(userId);
    });
  }

  request(actor: Actor, input: RequestFloatCommand, call: IdempotentCall): Promise<MessageResponse> {
    return this.idempotency.run(call, async (m) => {
      const attendant = await this.requests.findAttendant(m, actor, actor.userId);
      if (!attendant) throw new AppError(ErrorCode.AttendantNotFound, 'Attendant not found');
      const r = await this.requests.insert(m, actor.userId, amountToCents(input.amount));
      await this.record(m, actor.userId, 'float_request.created', null, r);
      const event = {
        requestId: r.id,
        attendantId: r.attendantId,
        attendantName: attendant.name,
        requestedAmount: centsToAmount(r.requestedCents),
        requestedAt: r.requestedAt.toISOString(),
      };
      return {
        body: { message: 'Float request submitted successfully' },
        afterCommit: () => {
          if (attendant.managerId) this.events.emit('float.requested', { managerId: attendant.managerId, event });
        },
      };
    });
  }

  /** Approves `requestId`, or else the attendant's oldest pending request, with `amount`. */
  assign(actor: Actor, input: AssignFloatCommand, call: IdempotentCall): Promise<MessageResponse> {
    return this.idempotency.run(call, async (m) => {
      const attendant = await this.requests.findAttendant(m, actor, input.attendantId);
      if (!attendant) throw new AppError(ErrorCode.AttendantNotFound, 'Attendant not found');
      const target = input.requestId
        ? await this.requests.findVisible(m, actor, input.requestId)
        : await this.requests.lockOldestPending(m, attendant.id);
      if (!target || target.attendantId !== attendant.id) {
        throw new AppError(
          ErrorCode.FloatRequestNotFound,
          input.requestId ? undefined : 'No pending float request for this attendant',
        );
      }
      const amount = amountToCents(input.amount);
      const approved = await this.requests.approve(m, target.id, amount, actor.userId);
      if (!approved) throw new AppError(ErrorCode.FloatRequestNotPending);
      const balance = await this.ledger.creditFloat(m, attendant.id, amount);
      // Refused as a business rule; the transaction rolls the approval back with it.
      if (balance === null) throw new AppError(ErrorCode.BalanceLimitExceeded);
      await this.ledger.insertEntries(m, [
        {
          accountType: 'float',
          accountId: attendant.id,
          kind: 'float_approval',
          amountCents: amount,
          balanceAfterCents: balance,
          reference: approved.id,
          actorId: actor.userId,
        },
      ]);
      await this.record(m, actor.userId, 'float_request.approved', target, approved);
      const decided = this.decided(approved, actor.userId);
      return {
        body: { message: 'Float assigned successfully' },
        afterCommit: () => this.events.emit('float.updated', decided),
      };
    });
  }

  reject(actor: Actor, requestId: string, call: IdempotentCall): Promise<MessageResponse> {
    return this.idempotency.run(call, async (m) => {
      const target = await this.requests.findVisible(m, actor, requestId);
      if (!target) throw new AppError(ErrorCode.FloatRequestNotFound);
      const rejected = await this.requests.reject(m, target.id, actor.userId);
      if (!rejected) throw new AppError(ErrorCode.FloatRequestNotPending);
      await this.record(m, actor.userId, 'float_request.rejected', target, rejected);
      const decided = this.decided(rejected, actor.userId);
      return {
        body: { message: 'Float request rejected' },
        afterCommit: () => this.events.emit('float.updated', decided),
      };
    });
  }

  async listOwn(actor: Actor): Promise<FloatRequestRow[]> {
    return (await this.requests.listVisible(actor)).map(toRow);
  }

  async balance(actor: Actor): Promise<{ balance: number }> {
    return { balance: centsToAmount(await this.ledger.floatBalance(actor.userId)) };
  }

  async listPending(actor: Actor): Promise<PendingFloatRequest[]> {
    return (await this.requests.listPending(actor)).map((r) => ({
      requestId: r.id,
      attendantId: r.attendantId,
      attendantName: r.attendantName,
      requestedAmount: centsToAmount(r.requestedCents),
      requestedAt: r.requestedAt.toISOString(),
    }));
  }

  private async rejectAllOf(attendantId: string, m: EntityManager): Promise<void> {
    const rejected = await this.requests.rejectAllPending(m, attendantId);
    this.rejectedOnRemoval.delete(attendantId);
    if (rejected.length === 0) return;
    const managerId = await this.requests.managerOf(m, attendantId);
    for (const r of rejected) await this.record(m, managerId, 'float_request.rejected', { ...r, status: 'pending' }, r);
    if (managerId)
      this.rejectedOnRemoval.set(
        attendantId,
        rejected.map((r) => this.decided(r, managerId)),
      );
  }

  private decided(r: StoredFloatRequest, managerId: string): Decided {
    const row = toRow(r);
    return {
      attendantId: r.attendantId,
      managerId,
      event: { requestId: r.id, status: r.status, approvedAmount: row.approvedAmount, approvedAt: row.approvedAt },
    };
  }

  private record(
    m: EntityManager,
    actorId: string | null,
    action: string,
    before: StoredFloatRequest | null,
    after: StoredFloatRequest,
  ): Promise<void> {
    return this.audit.record(m, {
      actorId,
      action,
      entity: 'float_request',
      entityId: after.id,
      before: before && toRow(before),
      after: toRow(after),
    });
  }
}

function toRow(r: StoredFloatRequest): FloatRequestRow {
  return {
    requestId: r.id,
    attendantId: r.attendantId,
    requestedAmount: centsToAmount(r.requestedCents),
    approvedAmount: r.approvedCents === null ? null : centsToAmount(r.approvedCents),
    status: r.status,
    requestedAt: r.requestedAt.toISOString(),
    approvedAt: r.status === 'approved' && r.decidedAt ? r.decidedAt.toISOString() : null,
  };
}
