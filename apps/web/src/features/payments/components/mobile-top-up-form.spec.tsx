import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Payment } from '@wv/contracts';
import { formatMoney } from '@/lib/format';
import { setLanguage } from '@/lib/i18n';
import type { RecordedRequest } from '../../../../test/api-server';
import { useFakeApi } from '../../../../test/fake-api';
import { renderWithQueries } from '../../../../test/render';
import { MobileTopUpForm } from './mobile-top-up-form';

const server = useFakeApi();

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

afterEach(async () => {
  await setLanguage('en');
});

function render() {
  localStorage.setItem('token', 'attendant-token');
  localStorage.setItem('role', 'attendant');
  localStorage.setItem('tokenExpiry', String(Date.now() + 20 * 60_000));
  const view = renderWithQueries(<MobileTopUpForm cardId="C-1" />);
  return { ...view, user: userEvent.setup({ delay: null }), form: within(screen.getByRole('form')) };
}

const posts = () => server.requests.filter((r) => r.method === 'POST' && r.path === '/cards/C-1/mobile-top-up');

async function fillAndSend(user: ReturnType<typeof userEvent.setup>, phone: string, amount: string) {
  const form = within(screen.getByRole('form', { name: 'Top up by M-Pesa' }));
  await user.clear(form.getByLabelText(/Customer’s phone number/));
  await user.type(form.getByLabelText(/Customer’s phone number/), phone);
  await user.clear(form.getByLabelText(/Amount in shillings/));
  await user.type(form.getByLabelText(/Amount in shillings/), amount);
  await user.click(form.getByRole('button', { name: 'Send payment request' }));
}

/** The text under a field (its aria-describedby), where its error shows. */
const describedText = (field: HTMLElement) =>
  (field.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent)
    .join(' ');

describe('Top up by M-Pesa', () => {
  it('follows the payment from waiting for the PIN to paid, after one request with an Idempotency-Key', async () => {
    let current = payment();
    server.answer((request: RecordedRequest) => {
      if (request.method === 'POST' && request.path === '/cards/C-1/mobile-top-up') {
        return { status: 202, body: { paymentId: PAYMENT_ID, status: 'pending' } };
      }
      if (request.method === 'GET' && request.path === `/payments/${PAYMENT_ID}`) return { body: current };
      return { status: 404, body: { statusCode: 404, code: 'NotFound', message: 'Not found' } };
    });
    const { user, unmount } = render();
    await fillAndSend(user, '+254708374149', '300');

    expect(await screen.findByText('Waiting for the customer to enter their M-Pesa PIN…')).toBeTruthy();
    expect(await screen.findByText(`Request for ${formatMoney(300)} sent to +254708374149.`)).toBeTruthy();
    expect(posts().map((r) => r.body)).toEqual([{ phoneNumber: '+254708374149', amount: 300 }]);
    expect(posts()[0]!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);

    // The customer enters their PIN: the next look at the payment finds it paid.
    current = payment({ status: 'completed', receipt: 'QK12AB34CD', completedAt: '2026-11-25T08:00:05.000Z' });
    expect(await screen.findByText(`Paid: receipt QK12AB34CD. ${formatMoney(300)} added to the card.`)).toBeTruthy();
    expect(screen.queryByText('Waiting for the customer to enter their M-Pesa PIN…')).toBeNull();
    expect(posts()).toHaveLength(1);
    unmount();
  });

  it('says in plain words when the customer cancelled, and offers a new top-up', async () => {
    server.answer((request) =>
      request.method === 'POST'
        ? { status: 202, body: { paymentId: PAYMENT_ID, status: 'pending' } }
        : { body: payment({ status: 'cancelled', completedAt: '2026-11-25T08:00:05.000Z' }) },
    );
    const { user, unmount } = render();
    await fillAndSend(user, '0708374149', '50');
    expect(
      await screen.findByText('The customer cancelled the payment on their phone. Nothing was taken.'),
    ).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'New top-up' }));
    expect(screen.getByRole('button', { name: 'Send payment request' })).toBeTruthy();
    unmount();
  });

  it('when M-Pesa is off, says so in a plain sentence and keeps the form', async () => {
    server.answer(() => ({
      status: 422,
      body: { statusCode: 422, code: 'MobileMoneyOff', message: 'Mobile money is not configured' },
    }));
    const { user, form, unmount } = render();
    await fillAndSend(user, '+254708374149', '300');
    expect(
      await screen.findByText('M-Pesa top-ups are not switched on for this service. Top the card up another way.'),
    ).toBeTruthy();
    expect(screen.queryByText(/MobileMoneyOff|not configured/)).toBeNull();
    expect(form.getByLabelText(/Customer’s phone number/)).toBeTruthy();
    expect(form.getByRole('button', { name: 'Send payment request' })).toBeTruthy();
    unmount();
  });

  it('puts mistakes next to their field: checked before sending, and the server’s refusal of the phone', async () => {
    server.answer(() => ({
      status: 400,
      body: {
        statusCode: 400,
        code: 'ValidationFailed',
        message: 'phoneNumber: must be a Kenyan mobile number',
        fields: [{ path: 'phoneNumber', message: 'must be a Kenyan mobile number' }],
      },
    }));
    const { user, form, unmount } = render();
    await user.type(form.getByLabelText(/Amount in shillings/), '12.5');
    await user.click(form.getByRole('button', { name: 'Send payment request' }));
    expect(describedText(form.getByLabelText(/Customer’s phone number/))).toBe(
      'Enter the phone number the customer pays from.',
    );
    expect(describedText(form.getByLabelText(/Amount in shillings/))).toBe(
      'Enter a whole number of shillings from 1 to 250,000.',
    );
    expect(posts()).toHaveLength(0);

    await fillAndSend(user, '+255712345678', '300');
    await screen.findByText('Enter a Kenyan mobile number, such as 0712 345 678 or +254 712 345 678.');
    expect(describedText(form.getByLabelText(/Customer’s phone number/))).toBe(
      'Enter a Kenyan mobile number, such as 0712 345 678 or +254 712 345 678.',
    );
    expect(describedText(form.getByLabelText(/Amount in shillings/))).toBe('');
    unmount();
  });

  it('retries a request that got no answer with the same Idempotency-Key, so the phone is asked once', async () => {
    let calls = 0;
    server.answer((request) => {
      if (request.method === 'GET') return { body: payment() };
      calls += 1;
      return calls === 1
        ? { status: 503, body: { statusCode: 503, code: 'Unavailable', message: 'Try again' } }
        : { status: 202, body: { paymentId: PAYMENT_ID, status: 'pending' } };
    });
    const { user, form, unmount } = render();
    await fillAndSend(user, '+254708374149', '300');
    await screen.findByText('The server could not be reached. Check the connection and try again.');
    await user.click(form.getByRole('button', { name: 'Send payment request' }));
    expect(await screen.findByText('Waiting for the customer to enter their M-Pesa PIN…')).toBeTruthy();
    const keys = posts().map((r) => r.headers['idempotency-key']);
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    unmount();
  });

  it('speaks Kiswahili', async () => {
    await setLanguage('sw');
    server.answer(() => ({ status: 202, body: { paymentId: PAYMENT_ID, status: 'pending' } }));
    const { unmount } = render();
    expect(screen.getByRole('form', { name: 'Ongeza salio kwa M-Pesa' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Tuma ombi la malipo' })).toBeTruthy();
    unmount();
  });
});
