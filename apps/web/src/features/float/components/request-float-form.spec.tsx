import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { env } from '@/config/env';
import { startApiServer, type ApiServer } from '../../../../test/api-server';
import { renderWithQueries } from '../../../../test/render';
import { RequestFloatForm } from './request-float-form';

let server: ApiServer;

beforeAll(async () => {
  server = await startApiServer();
});
afterAll(() => server.close());
beforeEach(() => {
  Object.assign(env, { apiUrl: server.apiUrl });
});
afterEach(() => {
  server.requests.length = 0;
  localStorage.clear();
});

function renderForm() {
  localStorage.setItem('token', 'attendant-token');
  renderWithQueries(<RequestFloatForm />);
  return userEvent.setup({ delay: null });
}

const amountField = () => screen.getByLabelText<HTMLInputElement>('Request Float Amount');

describe('Request Float', () => {
  it('sends the amount as a number and clears the field on success', async () => {
    server.answer(() => ({ status: 201, body: { message: 'Float request submitted successfully' } }));
    const user = renderForm();

    await user.type(amountField(), '25000.75');
    await user.click(screen.getByRole('button', { name: 'Request Float' }));

    expect((await screen.findByRole('status')).textContent).toBe('Float request submitted successfully');
    expect(server.requests[0]).toMatchObject({ method: 'POST', path: '/attendant/request-float' });
    expect(server.requests[0].body).toEqual({ amount: 25000.75 });
    expect(amountField().value).toBe('');
  });

  it('shows the server’s reason for a refusal, keeping the amount', async () => {
    server.answer(() => ({
      status: 400,
      body: { statusCode: 400, code: 'ValidationFailed', message: 'amount: must be more than 0' },
    }));
    const user = renderForm();

    await user.type(amountField(), '0');
    await user.click(screen.getByRole('button', { name: 'Request Float' }));

    expect((await screen.findByRole('alert')).textContent).toBe('Error: amount: must be more than 0');
    expect(amountField().value).toBe('0');
  });

  it('names a refused amount beside the field in plain words, never the server’s field name', async () => {
    server.answer(() => ({
      status: 400,
      body: {
        statusCode: 400,
        code: 'ValidationFailed',
        message: 'amount: must be greater than 0',
        fields: [{ path: 'amount', message: 'must be greater than 0' }],
      },
    }));
    const user = renderForm();

    await user.type(amountField(), '0');
    await user.click(screen.getByRole('button', { name: 'Request Float' }));

    const note = await screen.findByRole('alert');
    expect(note.textContent).toBe('Enter an amount above 0 with at most 2 decimals.');
    expect(amountField().getAttribute('aria-invalid')).toBe('true');
    expect(amountField().getAttribute('aria-describedby')).toBe(note.id);
    expect(document.body.textContent).not.toContain('amount:');
    expect(amountField().value).toBe('0');
  });

  it('says the request could not be submitted when no answer came', async () => {
    const gone = await startApiServer();
    await gone.close();
    Object.assign(env, { apiUrl: gone.apiUrl });
    const user = renderForm();

    await user.type(amountField(), '100');
    await user.click(screen.getByRole('button', { name: 'Request Float' }));

    expect((await screen.findByRole('alert')).textContent).toBe('Error submitting float request');
  });
});
