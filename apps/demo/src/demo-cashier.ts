import { Logger } from '@nestjs/common';
import { DEMO_ACCOUNTS } from './demo-accounts.js';
import { demoCall, demoLogin } from './demo-api.js';

/** A card under this balance is topped up by the attendant at the next round. */
const LOW_BALANCE = 3_000;
const TOP_UP = 10_000;
/** Float asked for when the attendant's float cannot pay the next top-ups. */
const FLOAT_REQUEST = 200_000;

interface CardRow {
  card_id: string;
  card_balance: number;
  status: string;
}

export interface DemoCashier {
  stop(): void;
}

/**
 * The demo's attendant at work. The simulated machines refuse a card without the balance for a sale, as firmware
 * does, so without this the demo's few cards would be spent within minutes and every card customer would pay with
 * coins. Every round the attendant tops up the active cards that run low from float, and asks for more float when
 * it runs out, which the manager approves: all of it through the public API, so every shilling is in the ledger and
 * the cards' new balances reach the machines' lists as any top-up does. The float request the demo keeps waiting
 * for the Float Approval screen is left alone (only the cashier's own request is approved).
 */
export function startDemoCashier(baseUrl: string, espId: string, everyMs: number): DemoCashier {
  const log = new Logger('Demo');
  let running = false;
  const round = async () => {
    const attendant = await demoLogin(baseUrl, DEMO_ACCOUNTS.attendant.email);
    const call = <T>(method: string, path: string, token: string, body?: unknown) =>
      demoCall<T>(baseUrl, method, path, token, body);
    const low = (await call<CardRow[]>('GET', `/cards/${espId}`, attendant)).filter(
      (c) => c.status === 'active' && c.card_balance < LOW_BALANCE,
    );
    if (low.length === 0) return;
    const { balance } = await call<{ balance: number }>('GET', '/attendant/float-balance', attendant);
    if (balance < low.length * TOP_UP) {
      await call('POST', '/attendant/request-float', attendant, { amount: FLOAT_REQUEST });
      const manager = await demoLogin(baseUrl, DEMO_ACCOUNTS.manager.email);
      const pending = await call<{ requestId: string; attendantId: string; requestedAmount: number }[]>(
        'GET',
        '/manager/float-requests',
        manager,
      );
      const mine = pending.find((r) => r.requestedAmount === FLOAT_REQUEST);
      if (mine) {
        await call('POST', '/manager/assign-float', manager, {
          attendantId: mine.attendantId,
          requestId: mine.requestId,
          amount: FLOAT_REQUEST,
        });
      }
    }
    for (const card of low) {
      await call('POST', `/att/cards/${encodeURIComponent(card.card_id)}/top-up`, attendant, { amount: TOP_UP });
    }
    log.log(`The attendant topped up ${low.length} card(s) running low by ${TOP_UP} each`);
  };
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    round()
      .catch((error: Error) => log.warn(`The attendant could not top up cards: ${error.message}`))
      .finally(() => (running = false));
  }, everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
