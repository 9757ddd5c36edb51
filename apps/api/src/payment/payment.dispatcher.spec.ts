import { describe, expect, it } from '@jest/globals';
import type { AppConfig } from '../config/app-config.js';
import type { MobileMoneyProvider } from './mobile-money.provider.js';
import { PaymentDispatcher } from './payment.dispatcher.js';
import type { PaymentSettlementService } from './payment-settlement.service.js';
import type { PaymentRepository, StoredPayment } from './payment.repository.js';

// An STK push Daraja accepted while PostgreSQL could not take the write of its CheckoutRequestID
// (docs/mobile-money.md, "Exactly once"): the fault suite restarted PostgreSQL at that moment, and
// the push, recorded as of unknown outcome, stayed pending for minutes although its answer had come.

const payment = { id: 'p-1', phoneNumber: '+254700000001', amountCents: 5000, cardId: 'C-1' } as StoredPayment;
const connectionReset = () => Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });

function dispatcher(markPushed: () => Promise<void>) {
  const calls = { markPushed: 0, unknownPush: 0, requests: 0 };
  const payments = {
    claimPushes: async () => ({ stale: [], claimed: [payment] }),
    claimQueries: async () => [],
    markPushed: async () => {
      calls.markPushed++;
      await markPushed();
    },
    unknownPush: async () => {
      calls.unknownPush++;
    },
  } as unknown as PaymentRepository;
  const provider = {
    longestQueryMs: 60_000,
    registerPaybillUrls: async () => undefined,
    requestPayment: async () => {
      calls.requests++;
      return { requestId: 'ws_CO_1', merchantRequestId: 'm-1' };
    },
  } as unknown as MobileMoneyProvider;
  const config = {
    mpesa: { queryAfterSeconds: 2, publicUrl: 'http://localhost', callbackToken: 't' },
  } as unknown as AppConfig;
  const settlement = { announce: () => undefined } as unknown as PaymentSettlementService;
  return { d: new PaymentDispatcher(payments, settlement, provider, config), calls };
}

describe('PaymentDispatcher records an accepted push', () => {
  it('writes the CheckoutRequestID again while PostgreSQL is unavailable, and never sends the push twice', async () => {
    let failures = 2;
    const { d, calls } = dispatcher(async () => {
      if (failures-- > 0) throw connectionReset();
    });
    await d.tick();
    expect(calls).toEqual({ markPushed: 3, unknownPush: 0, requests: 1 });
  }, 10_000);

  it('still counts the push as of unknown outcome when the write fails for another reason', async () => {
    const { d, calls } = dispatcher(async () => {
      throw Object.assign(new Error('value too long'), { code: '22001' });
    });
    await d.tick();
    expect(calls).toEqual({ markPushed: 1, unknownPush: 1, requests: 1 });
  });
});
