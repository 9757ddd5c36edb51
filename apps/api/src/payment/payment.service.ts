import { Inject, Injectable } from '@nestjs/common';
import {
  ErrorCode,
  type MobileTopUpRequest,
  type MobileTopUpResponse,
  type Payment,
  type PaymentListQuery,
} from '@wv/contracts';
import type { Actor } from '../common/actor.js';
import { AppError } from '../common/app-error.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { IdempotencyService, type IdempotentCall } from '../ledger/idempotency.service.js';
import { amountToCents, centsToAmount } from '../money/money.js';
import { MOBILE_MONEY_PROVIDER, type MobileMoneyProvider } from './mobile-money.provider.js';
import { PaymentSettlementService } from './payment-settlement.service.js';
import { PaymentRepository, type StoredPayment } from './payment.repository.js';

export function toPaymentBody(p: StoredPayment): Payment {
  return {
    paymentId: p.id,
    method: p.method,
    cardId: p.cardId,
    amount: centsToAmount(p.amountCents),
    phoneNumber: p.phoneNumber,
    status: p.status,
    receipt: p.receipt,
    createdAt: p.createdAt.toISOString(),
    completedAt: p.completedAt ? p.completedAt.toISOString() : null,
  };
}

/**
 * Card top-ups paid by mobile money (docs/mobile-money.md): a push is recorded with its payment, in the
 * transaction of its Idempotency-Key, and sent by the dispatcher (the outbox); payments are read in the
 * caller's scope; an admin matches an unmatched payment to a card.
 */
@Injectable()
export class PaymentService {
  constructor(
    private readonly payments: PaymentRepository,
    private readonly settlement: PaymentSettlementService,
    private readonly idempotency: IdempotencyService,
    @Inject(MOBILE_MONEY_PROVIDER) private readonly provider: MobileMoneyProvider,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  startTopUp(
    actor: Actor,
    cardId: string,
    input: MobileTopUpRequest,
    call: IdempotentCall,
  ): Promise<MobileTopUpResponse> {
    return this.idempotency.run(call, async (m) => {
      if (!this.config.mpesa) throw new AppError(ErrorCode.MobileMoneyOff);
      const card = await this.payments.findCardInScope(m, actor, cardId);
      if (!card) throw new AppError(ErrorCode.CardNotFound);
      if (card.status !== 'active') throw new AppError(ErrorCode.CardNotActive);
      const msisdn = this.provider.toMsisdn(input.phoneNumber);
      if (!msisdn) {
        const message = 'must be a Kenyan mobile number (+2547…, +2541…, 07… or 01…)';
        throw new AppError(ErrorCode.ValidationFailed, `phoneNumber: ${message}`, [{ path: 'phoneNumber', message }]);
      }
      const payment = await this.payments.insertStk(m, {
        card,
        amountCents: amountToCents(input.amount),
        phoneNumber: `+${msisdn}`,
        requestedBy: actor.userId,
      });
      return { body: { paymentId: payment.id, status: 'pending' as const } };
    });
  }

  async get(actor: Actor, paymentId: string): Promise<Payment> {
    const payment = await this.payments.findVisible(actor, paymentId);
    if (!payment) throw new AppError(ErrorCode.PaymentNotFound);
    return toPaymentBody(payment);
  }

  /** A card named in the filter must be in the caller's scope: another tenant's is 404, like everywhere. */
  async list(actor: Actor, query: PaymentListQuery): Promise<{ data: Payment[]; total: number }> {
    if (query.cardId && !(await this.payments.findCardInScope(this.payments.manager(), actor, query.cardId))) {
      throw new AppError(ErrorCode.CardNotFound);
    }
    const { rows, total } = await this.payments.list(actor, query);
    return { data: rows.map(toPaymentBody), total };
  }

  async match(actor: Actor, paymentId: string, cardId: string): Promise<Payment> {
    const result = await this.settlement.match(paymentId, cardId, actor.userId);
    if (result === null) throw new AppError(ErrorCode.PaymentNotFound);
    if (result === 'not-unmatched') throw new AppError(ErrorCode.PaymentNotUnmatched);
    if (result === 'card') throw new AppError(ErrorCode.CardNotFound);
    if (result === 'limit') throw new AppError(ErrorCode.BalanceLimitExceeded);
    return this.get(actor, paymentId);
  }
}
