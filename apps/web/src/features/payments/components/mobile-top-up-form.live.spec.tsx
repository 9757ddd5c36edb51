import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Payment } from '@wv/contracts';
import { env } from '@/config/env';
import { formatMoney } from '@/lib/format';
import { queryKeys } from '@/lib/query-keys';
import { startApiServer, type ApiServer } from '../../../../test/api-server';
import { startLiveServer, type LiveServer } from '../../../../test/live-server';
import { renderWithQueries } from '../../../../test/render';
import { MobileTopUpForm } from './mobile-top-up-form';

// The live server comes first: the page's address is the one the shared live connection uses.
let live: LiveServer;
let server: ApiServer;

const PAYMENT_ID = '7d3f0c2a-0000-4000-8000-000000000001';

const payment = (overrides: Partial<Payment> = {}): Payment => ({
  paymentId: PAYMENT_ID,
  method: 'stk',
  cardId: 'C-1',
  amount: 300,
  phoneNumber: '+254708374149',
  status: 'pending',
  receipt: null,
  createdAt: '2026-11-25T08:00:00.000Z',
  completedAt: null,
  ...overrides,
});

beforeAll(async () => {
  live = await startLiveServer();
  server = await startApiServer();
  Object.assign(env, { apiUrl: server.apiUrl });
});
afterAll(async () => {
  await server.close();
  await live.close();
});
afterEach(() => {
  server.requests.length = 0;
  localStorage.clear();
});

function render() {
  localStorage.setItem('token', 'attendant-token');
  localStorage.setItem('role', 'attendant');
  localStorage.setItem('tokenExpiry', String(Date.now() + 20 * 60_000));
  const view = renderWithQueries(<MobileTopUpForm cardId="C-1" />);
  return { ...view, user: userEvent.setup({ delay: null }) };
}

async function fillAndSend(user: ReturnType<typeof userEvent.setup>, phone: string, amount: string) {
  const form = within(screen.getByRole('form', { name: 'Top up by M-Pesa' }));
  await user.type(form.getByLabelText(/Customer’s phone number/), phone);
  await user.type(form.getByLabelText(/Amount in shillings/), amount);
  await user.click(form.getByRole('button', { name: 'Send payment request' }));
}

describe('Top up by M-Pesa, with live events', () => {
  const gets = () => server.requests.filter((r) => r.method === 'GET' && r.path === `/payments/${PAYMENT_ID}`);

  it('shows the payment paid as soon as payment.updated says so, asking the server far less often', async () => {
    server.answer((request) =>
      request.method === 'POST'
        ? { status: 202, body: { paymentId: PAYMENT_ID, status: 'pending' } }
        : { body: payment() },
    );
    const { user, queryClient, unmount } = render();
    queryClient.setQueryData(queryKeys.machineCards('ESP-1'), []);
    await live.connected();
    await fillAndSend(user, '+254708374149', '300');
    expect(await screen.findByText('Waiting for the customer to enter their M-Pesa PIN…')).toBeTruthy();

    live.emit('payment.updated', {
      paymentId: PAYMENT_ID,
      cardId: 'C-1',
      status: 'completed',
      amount: 300,
      receipt: 'QK12AB34CD',
      completedAt: '2026-11-25T08:00:05.000Z',
    });
    expect(await screen.findByText(`Paid: receipt QK12AB34CD. ${formatMoney(300)} added to the card.`)).toBeTruthy();
    // The card's balance and history are asked again.
    expect(queryClient.getQueryState(queryKeys.machineCards('ESP-1'))?.isInvalidated).toBe(true);
    // Live, the status is not polled every 2 seconds (only the first look and the slow fallback).
    expect(gets().length).toBeLessThanOrEqual(2);
    unmount();
  });

  it('refreshes the card when another payment of it settles, and ignores other cards’ payments', async () => {
    const { queryClient, unmount } = render();
    queryClient.setQueryData(queryKeys.machineCards('ESP-1'), []);
    await live.connected();
    const paybill = {
      paymentId: PAYMENT_ID,
      status: 'completed',
      amount: 50,
      receipt: 'QK00000001',
      completedAt: null,
    };
    live.emit('payment.updated', { ...paybill, cardId: 'C-OTHER' });
    live.emit('payment.updated', { ...paybill, cardId: 'C-1', status: 'pending' });
    await new Promise((r) => setTimeout(r, 300));
    expect(queryClient.getQueryState(queryKeys.machineCards('ESP-1'))?.isInvalidated).toBe(false);
    live.emit('payment.updated', { ...paybill, cardId: 'C-1' });
    await waitFor(() => expect(queryClient.getQueryState(queryKeys.machineCards('ESP-1'))?.isInvalidated).toBe(true));
    unmount();
  });
});
