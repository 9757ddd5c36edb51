import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Payment } from '@wv/contracts';
import { formatMoney } from '@/lib/format';
import { setLanguage } from '@/lib/i18n';
import { useFakeApi } from '../../../../test/fake-api';
import { renderWithQueries } from '../../../../test/render';
import { PaymentsView } from './payments-view';

const server = useFakeApi();

const STRAY = '7d3f0c2a-0000-4000-8000-00000000000a';

const payment = (overrides: Partial<Payment> = {}): Payment => ({
  paymentId: '7d3f0c2a-0000-4000-8000-000000000001',
  method: 'stk',
  cardId: 'C-1',
  amount: 300,
  phoneNumber: '+254708374149',
  status: 'completed',
  receipt: 'QK11111111',
  createdAt: '2026-11-25T08:00:00.000Z',
  completedAt: '2026-11-25T08:00:05.000Z',
  ...overrides,
});

const stray = (overrides: Partial<Payment> = {}) =>
  payment({
    paymentId: STRAY,
    method: 'paybill',
    cardId: null,
    amount: 450,
    phoneNumber: '254712345678',
    status: 'unmatched',
    receipt: 'QK22222222',
    ...overrides,
  });

afterEach(async () => {
  await setLanguage('en');
});

function render(role: 'admin' | 'manager') {
  localStorage.setItem('token', `${role}-token`);
  localStorage.setItem('role', role);
  localStorage.setItem('tokenExpiry', String(Date.now() + 20 * 60_000));
  const view = renderWithQueries(<PaymentsView isAdmin={role === 'admin'} />);
  return { ...view, user: userEvent.setup({ delay: null }) };
}

const notFound = { status: 404, body: { statusCode: 404, code: 'CardNotFound', message: 'Card not found' } };

describe('the payments page', () => {
  it('lists payments with their status in words, filters by status and card, and pages', async () => {
    server.answer((request) =>
      request.path === '/payments' ? { body: { data: [payment(), stray()], total: 60 } } : notFound,
    );
    const { user, unmount } = render('admin');
    const table = within(await screen.findByRole('table', { name: 'Payments' }));
    const rows = table.getAllByRole('row').slice(1);
    expect(rows[0]!.textContent).toContain('C-1');
    expect(rows[0]!.textContent).toContain(formatMoney(300));
    expect(rows[0]!.textContent).toContain('Payment request (STK push)');
    expect(rows[0]!.textContent).toContain('Paid');
    expect(rows[1]!.textContent).toContain('No card');
    expect(rows[1]!.textContent).toContain('Unmatched');
    expect(within(rows[0]!).queryByRole('button', { name: 'Match to a card' })).toBeNull();
    expect(within(rows[1]!).getByRole('button', { name: 'Match to a card' })).toBeTruthy();
    expect(screen.getByText('Page 1 of 3')).toBeTruthy();

    const filter = within(screen.getByRole('form', { name: 'Filter the payments' }));
    await user.selectOptions(filter.getByLabelText('Status'), 'unmatched');
    await user.type(filter.getByLabelText('Card ID'), ' C-9 ');
    await user.click(filter.getByRole('button', { name: 'Filter' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Page 2 of 3');
    // The page number shows at once; the request for that page follows.
    await waitFor(() =>
      expect(server.requests.filter((r) => r.path === '/payments').map((r) => r.query)).toContainEqual({
        status: 'unmatched',
        cardId: 'C-9',
        page: '2',
        limit: '25',
      }),
    );
    unmount();
  });

  it('says in plain words that no card has the ID of the filter (another tenant’s card is 404)', async () => {
    server.answer((request) =>
      request.path === '/payments' && request.query.cardId === 'C-X'
        ? notFound
        : request.path === '/payments'
          ? { body: { data: [payment()], total: 1 } }
          : notFound,
    );
    const { user, unmount } = render('manager');
    await screen.findByRole('table', { name: 'Payments' });
    const filter = within(screen.getByRole('form', { name: 'Filter the payments' }));
    await user.type(filter.getByLabelText('Card ID'), 'C-X');
    await user.click(filter.getByRole('button', { name: 'Filter' }));
    expect(await screen.findByText('No card has this ID.')).toBeTruthy();
    unmount();
  });

  it('lets a manager read payments without the admin’s statement upload, unmatched filter or matching', async () => {
    server.answer((request) => (request.path === '/payments' ? { body: { data: [payment()], total: 1 } } : notFound));
    const { unmount } = render('manager');
    await screen.findByRole('table', { name: 'Payments' });
    expect(screen.queryByRole('form', { name: 'Upload an M-Pesa statement' })).toBeNull();
    expect(screen.queryByRole('columnheader', { name: 'Action' })).toBeNull();
    const status = within(screen.getByRole('form', { name: 'Filter the payments' })).getByLabelText('Status');
    expect(within(status).queryByRole('option', { name: 'Unmatched' })).toBeNull();
    unmount();
  });

  // Sending the file (multipart, in Chromium) and the server's answers are the browser test's
  // (apps/web/e2e/mobile-top-up.e2e-spec.ts): jsdom's File and FormData do not travel through Node's fetch.
  it('asks for a CSV or xlsx statement before sending anything', async () => {
    server.answer((request) => (request.path === '/payments' ? { body: { data: [], total: 0 } } : notFound));
    const { user, unmount } = render('admin');
    const upload = within(await screen.findByRole('form', { name: 'Upload an M-Pesa statement' }));
    await user.click(upload.getByRole('button', { name: 'Upload statement' }));
    expect(upload.getByText('Choose the statement file first.')).toBeTruthy();

    await user.upload(upload.getByLabelText('Statement file'), new File(['x'], 'notes.txt', { type: 'text/csv' }));
    expect(upload.queryByText('Choose the statement file first.')).toBeNull();
    await user.click(upload.getByRole('button', { name: 'Upload statement' }));
    expect(upload.getByText('Choose a CSV or Excel (xlsx) file.')).toBeTruthy();
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(0);
    unmount();
  });

  it('matches an unmatched payment only after a confirmation, and says why a card was refused', async () => {
    let matched = false;
    server.answer((request) => {
      if (request.path === '/payments')
        return { body: { data: [matched ? stray({ status: 'completed', cardId: 'C-7' }) : stray()], total: 1 } };
      if (request.method === 'POST' && request.path === `/payments/${STRAY}/match`) {
        const { cardId } = request.body as { cardId: string };
        if (cardId !== 'C-7') return notFound;
        matched = true;
        return { body: stray({ status: 'completed', cardId: 'C-7' }) };
      }
      return notFound;
    });
    const { user, unmount } = render('admin');
    await user.click(await screen.findByRole('button', { name: 'Match to a card' }));
    const match = within(screen.getByRole('form', { name: 'Match payment QK22222222' }));
    expect(
      match.getByText(
        `${formatMoney(450)} from 254712345678 arrived without a card that could take it. Credit it to a card:`,
      ),
    ).toBeTruthy();

    await user.click(match.getByRole('button', { name: 'Credit to card' }));
    expect(match.getByText('Enter the ID of the card to credit.')).toBeTruthy();

    // Cancel sends nothing.
    await user.type(match.getByLabelText(/Card ID/), 'C-404');
    await user.click(match.getByRole('button', { name: 'Credit to card' }));
    await user.click(
      within(screen.getByRole('dialog', { name: `Credit ${formatMoney(450)} to card C-404?` })).getByRole('button', {
        name: 'Cancel',
      }),
    );
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(0);

    await user.click(match.getByRole('button', { name: 'Credit to card' }));
    await user.click(screen.getByRole('button', { name: 'Yes, credit it' }));
    expect(await match.findByText('No card has this ID.')).toBeTruthy();

    await user.clear(match.getByLabelText(/Card ID/));
    await user.type(match.getByLabelText(/Card ID/), 'C-7');
    await user.click(match.getByRole('button', { name: 'Credit to card' }));
    await user.click(screen.getByRole('button', { name: 'Yes, credit it' }));
    expect(await screen.findByText('Payment QK22222222 credited to card C-7.')).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Match payment QK22222222' })).toBeNull();
    const row = within(screen.getByRole('table', { name: 'Payments' })).getAllByRole('row')[1]!;
    await within(row).findByText('Paid');
    expect(within(row).queryByRole('button', { name: 'Match to a card' })).toBeNull();
    expect(server.requests.filter((r) => r.method === 'POST').map((r) => r.body)).toEqual([
      { cardId: 'C-404' },
      { cardId: 'C-7' },
    ]);
    unmount();
  });
});
