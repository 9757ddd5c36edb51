import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CardRow, MachineSync } from '@wv/contracts';
import { env } from '@/config/env';
import { setLanguage } from '@/lib/i18n';
import { startApiServer, type ApiServer, type Answer, type RecordedRequest } from '../../../../test/api-server';
import { startLiveServer, type LiveServer } from '../../../../test/live-server';
import { renderWithQueries } from '../../../../test/render';
import { MachineCards } from './machine-cards';

let server: ApiServer;
let live: LiveServer;

const card = (overrides: Partial<CardRow> = {}): CardRow => ({
  id: 'a1f0c000-0000-4000-8000-000000000001',
  card_id: 'C-LOST',
  card_holder_first_name: 'Neema',
  card_holder_last_name: 'Mollel',
  phoneNumber: '+255712345678',
  card_balance: 2500,
  card_type: 'Prepaid',
  date_registered: '2026-11-20T08:00:00.000Z',
  status: 'active',
  dailyLimitLitres: null,
  ...overrides,
});

const sync = (cardListVersion: number, cardListAckedVersion: number): MachineSync => ({
  lastSeq: 0,
  missing: [],
  queued: null,
  lastSaleAt: null,
  cardListVersion,
  cardListAckedVersion,
});

/** The fake API: the machine's cards and list versions as the test sets them, and `actions` for the POSTs/PUTs. */
function answerWith(state: {
  cards: CardRow[];
  sync: MachineSync;
  actions?: (request: RecordedRequest) => Answer | undefined;
}) {
  server.answer((request) => {
    if (request.method === 'GET' && request.path === '/cards/ESP-1') return { body: state.cards };
    if (request.method === 'GET' && request.path === '/machines/ESP-1/sync') return { body: state.sync };
    if (request.method === 'GET' && request.path.startsWith('/transactions/')) return { body: [] };
    return (
      state.actions?.(request) ?? { status: 404, body: { statusCode: 404, code: 'NotFound', message: 'Not found' } }
    );
  });
}

beforeAll(async () => {
  server = await startApiServer();
  Object.assign(env, { apiUrl: server.apiUrl });
  live = await startLiveServer();
});
afterAll(async () => {
  await live.close();
  await server.close();
});
afterEach(async () => {
  server.requests.length = 0;
  localStorage.clear();
  await setLanguage('en');
});

function render(props: { canTopUp?: boolean; canSetLimit?: boolean } = {}) {
  localStorage.setItem('token', 'attendant-token');
  localStorage.setItem('role', 'attendant');
  localStorage.setItem('tokenExpiry', String(Date.now() + 20 * 60_000));
  const view = renderWithQueries(
    <MachineCards espId="ESP-1" canTopUp={props.canTopUp ?? true} canSetLimit={props.canSetLimit ?? false} />,
  );
  return { ...view, user: userEvent.setup({ delay: null }) };
}

const sent = (method: string, path: string) => server.requests.filter((r) => r.method === method && r.path === path);

async function select(user: ReturnType<typeof userEvent.setup>, cardId: string, title = `Card ${cardId}`) {
  await user.click(await screen.findByRole('button', { name: cardId }));
  return within(await screen.findByRole('region', { name: title }));
}

describe('the cards of a machine', () => {
  it('lists each card with its balance and status, and says whether the machine’s list caught up', async () => {
    const state = {
      cards: [card(), card({ id: 'b2', card_id: 'C-OLD', status: 'blocked', card_balance: 0, dailyLimitLitres: 20 })],
      sync: sync(4, 3),
    };
    answerWith(state);
    const { unmount } = render();

    const table = within(await screen.findByRole('table', { name: 'Cards' }));
    const rows = table.getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      'C-LOSTNeema MollelTZS 2,500ActiveNo limit',
      'C-OLDNeema MollelTZS 0Blocked20 L a day',
    ]);
    expect(
      await screen.findByText('Machine’s card list: waiting for the machine (version 4 sent, 3 acknowledged)'),
    ).toBeTruthy();

    // The machine acknowledges: the page asks again by itself and says so.
    state.sync = sync(4, 4);
    expect(await screen.findByText('Machine’s card list: up to date (version 4)')).toBeTruthy();
    unmount();
  });

  it('blocks a card only with a reason and after a confirmation; Cancel sends nothing', async () => {
    const state = { cards: [card()], sync: sync(2, 2) };
    answerWith(
      Object.assign(state, {
        actions: (request: RecordedRequest) => {
          if (request.method !== 'POST' || request.path !== '/cards/C-LOST/block') return undefined;
          state.cards = [card({ status: 'blocked' })];
          return { body: state.cards[0] };
        },
      }),
    );
    const { user, unmount } = render();
    const panel = await select(user, 'C-LOST');
    const form = within(panel.getByRole('form', { name: 'Block a lost or stolen card' }));

    // No reason: said in plain words next to the field, nothing sent.
    await user.click(form.getByRole('button', { name: 'Block card' }));
    const reason = form.getByLabelText('Reason');
    expect(reason.getAttribute('aria-invalid')).toBe('true');
    const describedBy = reason.getAttribute('aria-describedby') ?? '';
    expect(document.getElementById(describedBy)?.textContent).toBe(
      'Say why the card is blocked, for example lost or stolen.',
    );
    expect(screen.queryByRole('dialog')).toBeNull();

    await user.type(reason, 'Lost at the market');
    await user.click(form.getByRole('button', { name: 'Block card' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Block card C-LOST?' }));
    expect(document.activeElement?.textContent).toBe('Cancel');
    await user.click(dialog.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(sent('POST', '/cards/C-LOST/block')).toHaveLength(0);

    await user.click(form.getByRole('button', { name: 'Block card' }));
    await user.click(screen.getByRole('button', { name: 'Yes, block' }));
    expect(await panel.findByText('Card blocked.')).toBeTruthy();
    const [request] = sent('POST', '/cards/C-LOST/block');
    expect(request.body).toEqual({ reason: 'Lost at the market' });
    expect(request.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    // The card is blocked everywhere it shows, and the panel offers Unblock instead.
    await panel.findByRole('button', { name: 'Unblock card' });
    expect(within(screen.getByRole('table', { name: 'Cards' })).getByText('Blocked')).toBeTruthy();
    unmount();
  });

  it('replaces a card: a taken ID is refused in plain words next to the field; then the new card is selected', async () => {
    const state = { cards: [card()], sync: sync(2, 2) };
    answerWith(
      Object.assign(state, {
        actions: (request: RecordedRequest) => {
          if (request.method !== 'POST' || request.path !== '/cards/C-LOST/replace') return undefined;
          const { newCardId } = request.body as { newCardId: string };
          if (newCardId === 'C-TAKEN') {
            return {
              status: 409,
              body: { statusCode: 409, code: 'CardAlreadyRegistered', message: 'Card is already registered' },
            };
          }
          const created = card({ id: 'c3', card_id: newCardId });
          state.cards = [card({ status: 'blocked', card_balance: 0 }), created];
          return { status: 201, body: created };
        },
      }),
    );
    const { user, unmount } = render();
    const panel = await select(user, 'C-LOST');
    const form = within(panel.getByRole('form', { name: 'Replace with a new card' }));

    await user.type(form.getByLabelText('New card ID'), 'C-TAKEN');
    await user.click(form.getByRole('button', { name: 'Replace card' }));
    expect(screen.getByRole('dialog', { name: 'Replace card C-LOST?' }).textContent).toContain(
      'Card C-TAKEN gets the holder and the balance of TZS 2,500; card C-LOST is blocked for good.',
    );
    await user.click(screen.getByRole('button', { name: 'Yes, replace' }));
    const error = await form.findByText('That card ID is already in use. Use a new, unregistered card.');
    expect(error.id).toBe(form.getByLabelText('New card ID').getAttribute('aria-describedby'));
    expect(screen.queryByText(/newCardId|CardAlreadyRegistered/)).toBeNull();

    await user.clear(form.getByLabelText('New card ID'));
    await user.type(form.getByLabelText('New card ID'), 'C-NEW');
    await user.click(form.getByRole('button', { name: 'Replace card' }));
    await user.click(screen.getByRole('button', { name: 'Yes, replace' }));
    const fresh = within(await screen.findByRole('region', { name: 'Card C-NEW' }));
    expect(await fresh.findByText('Card replaced. Card C-NEW now holds TZS 2,500.')).toBeTruthy();
    expect(sent('POST', '/cards/C-LOST/replace').map((r) => r.body)).toEqual([
      { newCardId: 'C-TAKEN' },
      { newCardId: 'C-NEW' },
    ]);
    unmount();
  });

  it('sets and removes a daily limit for a manager, refusing litres it cannot send', async () => {
    const state = { cards: [card()], sync: sync(2, 2) };
    answerWith(
      Object.assign(state, {
        actions: (request: RecordedRequest) => {
          if (request.method !== 'PUT' || request.path !== '/cards/C-LOST/limits') return undefined;
          const { dailyLimitLitres } = request.body as { dailyLimitLitres: number | null };
          state.cards = [card({ dailyLimitLitres })];
          return { body: state.cards[0] };
        },
      }),
    );
    const { user, unmount } = render({ canTopUp: false, canSetLimit: true });
    const panel = await select(user, 'C-LOST');
    expect(panel.queryByRole('form', { name: 'Top up' })).toBeNull();
    const form = () => within(panel.getByRole('form', { name: 'Daily limit' }));

    await user.type(form().getByLabelText('Daily limit (litres)'), '0');
    await user.click(form().getByRole('button', { name: 'Save limit' }));
    expect(await form().findByText(/^Enter litres above 0/)).toBeTruthy();
    expect(sent('PUT', '/cards/C-LOST/limits')).toHaveLength(0);

    await user.clear(form().getByLabelText('Daily limit (litres)'));
    await user.type(form().getByLabelText('Daily limit (litres)'), '20');
    await user.click(form().getByRole('button', { name: 'Save limit' }));
    expect(await panel.findByText('Daily limit saved.')).toBeTruthy();
    await waitFor(() =>
      expect(panel.getByText('Daily limit', { selector: 'dt' }).nextSibling?.textContent).toBe('20 L a day'),
    );

    await user.click(form().getByRole('button', { name: 'Remove limit' }));
    expect(await panel.findByText('Daily limit removed.')).toBeTruthy();
    expect(sent('PUT', '/cards/C-LOST/limits').map((r) => r.body)).toEqual([
      { dailyLimitLitres: 20 },
      { dailyLimitLitres: null },
    ]);
    unmount();
  });

  it('tops a card up from float; too little float is said in plain words', async () => {
    const state = { cards: [card()], sync: sync(2, 2) };
    answerWith(
      Object.assign(state, {
        actions: (request: RecordedRequest) => {
          if (request.method !== 'POST' || request.path !== '/att/cards/C-LOST/top-up') return undefined;
          const { amount } = request.body as { amount: number };
          if (amount > 1000) {
            return {
              status: 422,
              body: { statusCode: 422, code: 'InsufficientFloat', message: 'Insufficient float balance' },
            };
          }
          state.cards = [card({ card_balance: 2500 + amount })];
          return { status: 201, body: { card_balance: 2500 + amount } };
        },
      }),
    );
    const { user, unmount } = render();
    const panel = await select(user, 'C-LOST');
    const form = within(panel.getByRole('form', { name: 'Top up' }));

    await user.type(form.getByLabelText('Top-up amount'), '5000');
    await user.click(form.getByRole('button', { name: 'Top up' }));
    expect(await form.findByText('Your float is too small for this top-up.')).toBeTruthy();

    await user.clear(form.getByLabelText('Top-up amount'));
    await user.type(form.getByLabelText('Top-up amount'), '500');
    await user.click(form.getByRole('button', { name: 'Top up' }));
    expect(await panel.findByText('Card topped up. New balance: TZS 3,000.')).toBeTruthy();
    const keys = sent('POST', '/att/cards/C-LOST/top-up').map((r) => r.headers['idempotency-key']);
    expect(keys).toHaveLength(2);
    expect(keys[1]).not.toBe(keys[0]);
    unmount();
  });

  it('speaks Kiswahili when asked: statuses, the list line and the actions', async () => {
    answerWith({ cards: [card({ status: 'blocked', dailyLimitLitres: 12.5 })], sync: sync(7, 7) });
    await setLanguage('sw');
    const { user, unmount } = render();

    expect(await screen.findByText('Orodha ya kadi ya mashine: imesasishwa (toleo 7)')).toBeTruthy();
    const table = within(await screen.findByRole('table', { name: 'Kadi' }));
    expect(table.getByText('Imezuiwa')).toBeTruthy();
    expect(table.getByText('Lita 12.5 kwa siku')).toBeTruthy();
    const panel = await select(user, 'C-LOST', 'Kadi C-LOST');
    expect(panel.getByRole('button', { name: 'Ondoa zuio' })).toBeTruthy();
    expect(panel.getByRole('form', { name: 'Badilisha kwa kadi mpya' })).toBeTruthy();
    unmount();
  });
});
