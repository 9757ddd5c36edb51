import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { io as connect, type Socket } from 'socket.io-client';
import { paymentUpdatedEventSchema, type PaymentUpdatedEvent } from '@wv/contracts';
import { createAttendant } from '../factories/fleet.factory.js';
import { createMpesaWorld, newCard, settled, topUp, waitFor, type MpesaWorld } from './mpesa-harness.js';

/** A signed-in client and the `payment.updated` events it got. */
interface Listener {
  socket: Socket;
  events: PaymentUpdatedEvent[];
}

describe('payment.updated, live to the sockets whose scope holds the card (docs/live-events.md)', () => {
  let w: MpesaWorld;
  let listeners: Record<
    'manager' | 'attendant' | 'ownersOtherAttendant' | 'admin' | 'otherManager' | 'otherAttendant',
    Listener
  >;

  async function listen(token: string): Promise<Listener> {
    const socket = connect(w.t.baseUrl, { path: '/socket.io', auth: { token }, transports: ['websocket'] });
    const events: PaymentUpdatedEvent[] = [];
    socket.onAny((event: string, payload: unknown) => {
      if (event === 'payment.updated') events.push(paymentUpdatedEventSchema.parse(payload));
    });
    await new Promise<void>((resolve, reject) => socket.once('connect', () => resolve()).once('connect_error', reject));
    return { socket, events };
  }

  beforeAll(async () => {
    w = await createMpesaWorld();
    await waitFor('the C2B URL registration', () => w.sandbox.registeredUrls());
    // The attendant of the owner's other machine sees the owner's cards too (docs/mobile-money.md, "Who may").
    const second = await createAttendant(w.t.http, w.manager.token, w.manager.devices[1]!.espId);
    listeners = {
      manager: await listen(w.manager.token),
      attendant: await listen(w.attendant.token),
      ownersOtherAttendant: await listen(second.token),
      admin: await listen(w.admin),
      otherManager: await listen(w.other.manager.token),
      otherAttendant: await listen(w.other.attendant.token),
    };
  }, 120_000);
  afterAll(async () => {
    for (const l of Object.values(listeners ?? {})) l.socket.close();
    await w?.close();
  });

  const eventsOf = (paymentId: string) =>
    Object.fromEntries(
      Object.entries(listeners).map(([who, l]) => [who, l.events.filter((e) => e.paymentId === paymentId)]),
    );
  const inScope = ['manager', 'attendant', 'ownersOtherAttendant', 'admin'] as const;

  it('tells the card’s owner, the attendants of the owner’s machines and admins that a top-up completed', async () => {
    const card = await newCard(w);
    const { paymentId, push } = await topUp(w, card.card_id, 150);
    w.sandbox.respond(push.checkoutRequestId, 'success');
    const done = await settled(w, paymentId);
    await waitFor('the events', () => inScope.every((who) => eventsOf(paymentId)[who]!.length > 0));
    // Events for others would have come with these (one broadcast): give them a moment anyway.
    await new Promise((r) => setTimeout(r, 500));
    const got = eventsOf(paymentId);
    const expected: PaymentUpdatedEvent = {
      paymentId,
      cardId: card.card_id,
      status: 'completed',
      amount: 150,
      receipt: push.receipt,
      completedAt: (done as unknown as { completedAt: string }).completedAt,
    };
    for (const who of inScope) expect({ who, events: got[who] }).toEqual({ who, events: [expected] });
    expect(got.otherManager).toEqual([]);
    expect(got.otherAttendant).toEqual([]);
  });

  it('tells the same sockets of a cancelled top-up, and the other tenant nothing', async () => {
    const card = await newCard(w);
    const { paymentId, push } = await topUp(w, card.card_id, 40);
    w.sandbox.respond(push.checkoutRequestId, 'cancelled');
    await settled(w, paymentId, 'cancelled');
    await waitFor('the events', () => inScope.every((who) => eventsOf(paymentId)[who]!.length > 0));
    await new Promise((r) => setTimeout(r, 500));
    const got = eventsOf(paymentId);
    for (const who of inScope) {
      expect(got[who]).toEqual([
        { paymentId, cardId: card.card_id, status: 'cancelled', amount: 40, receipt: null, completedAt: null },
      ]);
    }
    expect(got.otherManager).toEqual([]);
    expect(got.otherAttendant).toEqual([]);
  });

  it('tells the other tenant of its own cards only', async () => {
    const card = await newCard(w, w.other.attendant.token);
    const { paymentId, push } = await topUp(w, card.card_id, 25, { token: w.other.attendant.token });
    w.sandbox.respond(push.checkoutRequestId, 'success');
    await settled(w, paymentId);
    await waitFor('the events', () =>
      ['otherManager', 'otherAttendant', 'admin'].every((who) => eventsOf(paymentId)[who]!.length > 0),
    );
    await new Promise((r) => setTimeout(r, 500));
    const got = eventsOf(paymentId);
    expect(got.otherManager).toEqual([expect.objectContaining({ status: 'completed', cardId: card.card_id })]);
    for (const who of ['manager', 'attendant', 'ownersOtherAttendant'] as const) expect(got[who]).toEqual([]);
  });

  it('tells admins alone of a paybill payment that matches no card', async () => {
    w.sandbox.validationEnabled = false;
    try {
      const paid = await w.sandbox.payBill({ msisdn: '254708374149', amount: 90, account: 'NO-SUCH-CARD' });
      const admin = await waitFor('the admin’s event', () =>
        listeners.admin.events.find((e) => e.status === 'unmatched' && e.receipt === paid.transId),
      );
      expect(admin).toMatchObject({ cardId: null, amount: 90 });
      await new Promise((r) => setTimeout(r, 500));
      for (const who of ['manager', 'attendant', 'ownersOtherAttendant', 'otherManager', 'otherAttendant'] as const) {
        expect(eventsOf(admin.paymentId)[who]).toEqual([]);
      }
    } finally {
      w.sandbox.validationEnabled = true;
    }
  });
});
