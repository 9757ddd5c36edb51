import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useFakeApi } from '../../../../test/fake-api';
import { renderWithQueries } from '../../../../test/render';
import { AddCardForm } from './add-card-form';

const server = useFakeApi();

afterEach(() => {
  jest.restoreAllMocks();
});

function renderForm() {
  localStorage.setItem('token', 'attendant-token');
  renderWithQueries(<AddCardForm />);
  return userEvent.setup({ delay: null });
}

async function fillIn(user: ReturnType<typeof userEvent.setup>, values: Record<string, string>) {
  for (const [label, value] of Object.entries(values)) if (value) await user.type(screen.getByLabelText(label), value);
}

const input = (label: string) => screen.getByLabelText<HTMLInputElement>(label);

const REQUIRED = {
  'Card ID': 'C-100',
  'First Name': 'Asha',
  'Last Name': 'Mushi',
  Balance: '1500.50',
  'Card Type': 'student',
};

describe('Register New User (a card)', () => {
  it('sends the card with its balance as a number, leaving out an empty mobile number', async () => {
    server.answer(() => ({ status: 201, body: { id: 'f3b2c1a0-0000-4000-8000-000000000001' } }));
    const user = renderForm();

    await fillIn(user, REQUIRED);
    await user.click(screen.getByRole('button', { name: 'Register' }));

    expect((await screen.findByRole('status')).textContent).toBe(
      'User added successfully. ID: f3b2c1a0-0000-4000-8000-000000000001',
    );
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/att/add/user/card' });
    expect(request.body).toEqual({
      card_id: 'C-100',
      card_holder_first_name: 'Asha',
      card_holder_last_name: 'Mushi',
      card_balance: 1500.5,
      card_type: 'student',
    });
    expect(request.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(request.headers.authorization).toBe('Bearer attendant-token');
  });

  it('empties the form after a card is registered', async () => {
    server.answer(() => ({ status: 201, body: { id: 'card-1' } }));
    const user = renderForm();

    await fillIn(user, REQUIRED);
    await user.click(screen.getByRole('button', { name: 'Register' }));

    await screen.findByRole('status');
    expect(input('Card ID').value).toBe('');
    expect(input('Balance').value).toBe('');
  });

  it('sends the mobile number when one is given', async () => {
    server.answer(() => ({ status: 201, body: { id: 'card-1' } }));
    const user = renderForm();

    await fillIn(user, { ...REQUIRED, 'Mobile No': '+255712345678' });
    await user.click(screen.getByRole('button', { name: 'Register' }));

    await screen.findByRole('status');
    expect(server.requests[0].body).toMatchObject({ phoneNumber: '+255712345678' });
  });

  it('sends nothing while a required field is empty', async () => {
    server.answer(() => ({ status: 201, body: { id: 'card-1' } }));
    const user = renderForm();

    await fillIn(user, { ...REQUIRED, 'Last Name': '' });
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect(input('Last Name').validity.valueMissing).toBe(true);

    await fillIn(user, { 'Last Name': 'Mushi' });
    await user.click(screen.getByRole('button', { name: 'Register' }));
    await screen.findByRole('status');
    // Only the second, complete submission reached the server.
    expect(server.requests).toHaveLength(1);
  });

  it('alerts that a card is already registered when the server says so', async () => {
    const alert = jest.spyOn(window, 'alert').mockImplementation(() => {});
    server.answer(() => ({ status: 409, body: { statusCode: 409, code: 'CARD_EXISTS', message: 'Card exists' } }));
    const user = renderForm();

    await fillIn(user, REQUIRED);
    await user.click(screen.getByRole('button', { name: 'Register' }));

    await waitFor(() => expect(alert).toHaveBeenCalledWith('Card is already registered.'));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(input('Card ID').value).toBe('C-100');
  });

  it('shows the server’s reason for another refusal', async () => {
    server.answer(() => ({
      status: 400,
      body: { statusCode: 400, code: 'FLOAT_INSUFFICIENT', message: 'Bad request', error: 'Insufficient float' },
    }));
    const user = renderForm();

    await fillIn(user, REQUIRED);
    await user.click(screen.getByRole('button', { name: 'Register' }));

    expect((await screen.findByRole('alert')).textContent).toBe('Failed to add user: Insufficient float');
  });

  it('retries with the same Idempotency-Key after a server error, so that the float is spent once', async () => {
    server.answer(() => ({ status: 503, body: 'Service Unavailable' }));
    const user = renderForm();

    await fillIn(user, REQUIRED);
    await user.click(screen.getByRole('button', { name: 'Register' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to add user: Service Unavailable');

    server.answer(() => ({ status: 201, body: { id: 'card-1' } }));
    await user.click(screen.getByRole('button', { name: 'Register' }));
    await screen.findByRole('status');

    const [first, retry] = server.requests;
    expect(retry.headers['idempotency-key']).toBe(first.headers['idempotency-key']);
  });
});
