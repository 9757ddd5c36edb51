import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode, MOBILE_MONEY_MAX, type C2bPayment, type StkCallback } from '@wv/contracts';
import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError } from '../common/app-error.js';
import { APP_CONFIG, type AppConfig, type MpesaConfig } from '../config/app-config.js';
import { PaymentSettlementService } from './payment-settlement.service.js';
import { PaymentRepository } from './payment.repository.js';

const RECEIPT = /^[A-Z0-9]{10}$/;
const ACCEPTED = { ResultCode: 0, ResultDesc: 'Accepted' };

/** Daraja's C2B validation answers ("Customer To Business", "Validation"). */
const C2B_ACCEPT = { ResultCode: '0', ResultDesc: 'Accepted' };
const C2B_INVALID_ACCOUNT = { ResultCode: 'C2B00012', ResultDesc: 'Rejected: invalid account number' };
const C2B_INVALID_AMOUNT = { ResultCode: 'C2B00013', ResultDesc: 'Rejected: invalid amount' };
const C2B_INVALID_SHORTCODE = { ResultCode: 'C2B00015', ResultDesc: 'Rejected: invalid shortcode' };

const digest = (text: string) => createHash('sha256').update(text).digest();

/** `YYYYMMDDHHmmss` in East Africa Time (UTC+3) as an instant. */
export function fromDarajaTime(text: string): Date {
  const [, y, mo, d, h, mi, s] = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(text)!.map(Number);
  return new Date(Date.UTC(y!, mo! - 1, d!, h! - 3, mi!, s!));
}

/**
 * The callbacks Daraja makes (docs/mobile-money.md, "Callback security"): their bodies were parsed
 * strictly against Daraja's documented shapes before this runs (400 names the field); the path's
 * secret token is compared in constant time (a wrong one is 404, as for a path that does not exist);
 * the shortcode and amounts are checked against this server's account and the push it made. A
 * callback for a push this server never made is recorded and credits nothing.
 */
@Injectable()
export class MpesaCallbackService {
  constructor(
    private readonly settlement: PaymentSettlementService,
    private readonly payments: PaymentRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private authorize(token: string): MpesaConfig {
    const mpesa = this.config.mpesa;
    if (!mpesa || !timingSafeEqual(digest(token), digest(mpesa.callbackToken))) {
      throw new AppError(ErrorCode.NotFound, 'No such endpoint');
    }
    return mpesa;
  }

  async stkCallback(token: string, body: StkCallback) {
    this.authorize(token);
    const cb = body.Body.stkCallback;
    const items = new Map((cb.CallbackMetadata?.Item ?? []).map((i) => [i.Name, i.Value]));
    let receipt: string | undefined;
    let amountCents: number | undefined;
    let msisdn: string | undefined;
    if (cb.ResultCode === 0) {
      const phone = String(items.get('PhoneNumber') ?? '');
      if (/^\d{9,15}$/.test(phone)) msisdn = phone;
      const amount = Number(items.get('Amount'));
      receipt = String(items.get('MpesaReceiptNumber') ?? '');
      const bad = (path: string, message: string) =>
        new AppError(ErrorCode.ValidationFailed, `${path}: ${message}`, [{ path, message }]);
      if (!Number.isFinite(amount) || amount <= 0 || amount > MOBILE_MONEY_MAX) {
        throw bad('Body.stkCallback.CallbackMetadata.Amount', 'must be a positive amount');
      }
      if (!RECEIPT.test(receipt)) {
        throw bad('Body.stkCallback.CallbackMetadata.MpesaReceiptNumber', 'must be an M-Pesa receipt number');
      }
      amountCents = Math.round(amount * 100);
    }
    await this.settlement.settleStk(
      'stk-callback',
      {
        checkoutRequestId: cb.CheckoutRequestID,
        resultCode: cb.ResultCode,
        resultDesc: cb.ResultDesc,
        receipt,
        amountCents,
        msisdn,
      },
      body,
    );
    return ACCEPTED;
  }

  async c2bValidation(token: string, payment: C2bPayment) {
    const mpesa = this.authorize(token);
    const answer = await this.validate(mpesa, payment);
    await this.payments.recordEvent(this.payments.manager(), {
      source: 'c2b-validation',
      outcome: answer.ResultCode === '0' ? 'accepted' : answer.ResultCode,
      paymentId: null,
      reference: payment.TransID,
      body: payment,
    });
    return answer;
  }

  private async validate(mpesa: MpesaConfig, p: C2bPayment) {
    if (p.BusinessShortCode !== mpesa.shortcode) return C2B_INVALID_SHORTCODE;
    const amount = Number(p.TransAmount);
    if (!(amount >= 1) || amount > MOBILE_MONEY_MAX) return C2B_INVALID_AMOUNT;
    const card = await this.payments.findCard(this.payments.manager(), p.BillRefNumber.trim());
    return card && card.status === 'active' ? C2B_ACCEPT : C2B_INVALID_ACCOUNT;
  }

  async c2bConfirmation(token: string, p: C2bPayment) {
    const mpesa = this.authorize(token);
    if (p.BusinessShortCode !== mpesa.shortcode) {
      // Money paid to another account never credits here; kept for the admin to see.
      await this.payments.recordEvent(this.payments.manager(), {
        source: 'c2b-confirmation',
        outcome: 'wrong-shortcode',
        paymentId: null,
        reference: p.TransID,
        body: p,
      });
      return ACCEPTED;
    }
    await this.settlement.settlePaybill(
      'c2b-confirmation',
      {
        receipt: p.TransID,
        amountCents: Math.round(Number(p.TransAmount) * 100),
        accountReference: p.BillRefNumber.trim(),
        msisdn: /^\d{9,15}$/.test(p.MSISDN) ? p.MSISDN : null,
        completedAt: fromDarajaTime(p.TransTime),
      },
      p,
    );
    return ACCEPTED;
  }
}
