import { describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PendingFloatRequest } from '@wv/contracts';
import type { RecordedRequest } from '../../../../test/api-server';
import { useFakeApi } from '../../../../test/fake-api';
import { renderWithQueries } from '../../../../test/render';
import { FloatApproval } from './float-approval';

const server = useFakeApi();

const ASHA: PendingFloatRequest = {
  requestId: '1b7e0c3e-2f0a-4a43-9d8e-7c1f4b1a0001',
  attendantId: '6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f0001',
  attendantName: 'Asha Mushi',
  requestedAmount: 50000,
  requestedAt: '2026-04-01T06:00:00Z',
};
const JUMA: PendingFloatRequest = {
  requestId: '1b7e0c3e-2f0a-4a43-9d8e-7c1f4b1a0002',
  attendantId: '6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f0002',
  attendantName: 'Juma Said',
  requestedAmount: 20000,
  requestedAt: '2026-04-01T07:00:00Z',
};

/** A manager's pending list on the server: approving or rejecting a request takes it off. */
function managerServer(pending: PendingFloatRequest[], refuse?: { status: number; error: string }) {
  return (request: RecordedRequest) => {
    if (request.method === 'GET' && request.path === '/manager/float-requests') return { body: pending };
    if (refuse) {
      return { status: refuse.status, body: { statusCode: refuse.status, code: 'REFUSED', message: refuse.error } };
    }
    if (request.path === '/manager/assign-float') {
      const { requestId } = request.body as { requestId: string };
      pending = pending.filter((row) => row.requestId !== requestId);
      return { status: 201, body: { message: 'Float assigned' } };
    }
    const rejected = /^\/manager\/float-requests\/([^/]+)\/reject$/.exec(request.path);
    if (rejected) {
      pending = pending.filter((row) => row.requestId !== rejected[1]);
      return { body: { message: 'Float request rejected' } };
    }
    return { status: 404 };
  };
}

async function renderApproval(handler: ReturnType<typeof managerServer>) {
  localStorage.setItem('token', 'manager-token');
  server.answer(handler);
  renderWithQueries(<FloatApproval />);
  await waitFor(() => expect(screen.queryByText('Loading...')).toBeNull());
  return userEvent.setup({ delay: null });
}

const requestCard = (name: string) => screen.getByRole('listitem', { name: `Float request from ${name}` });
const sentTo = (path: string) => server.requests.filter((request) => request.path === path);

describe('Float Approval', () => {
  it('lists each pending request with the attendant and the requested float', async () => {
    await renderApproval(managerServer([ASHA, JUMA]));

    const list = screen.getByRole('list', { name: 'Pending float requests' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    const asha = within(requestCard('Asha Mushi'));
    expect(asha.getByText(ASHA.attendantId)).toBeTruthy();
    expect(asha.getByText(/50,?000(\.00)?$/)).toBeTruthy();
    expect(asha.getByLabelText<HTMLInputElement>('Amount to assign').value).toBe('50000');
  });

  it('says so when nothing is pending', async () => {
    await renderApproval(managerServer([]));
    expect(screen.getByText('No float requests pending')).toBeTruthy();
  });

  it('assigns the amount as edited, for that request, and takes the request off the list', async () => {
    const user = await renderApproval(managerServer([ASHA, JUMA]));
    const asha = within(requestCard('Asha Mushi'));

    await user.clear(asha.getByLabelText('Amount to assign'));
    await user.type(asha.getByLabelText('Amount to assign'), '45000.50');
    await user.click(asha.getByRole('button', { name: 'Assign Float' }));

    expect((await screen.findByText('Float assigned successfully')).closest('[role="status"]')).toBeTruthy();
    const [assign] = sentTo('/manager/assign-float');
    expect(assign.method).toBe('POST');
    expect(assign.body).toEqual({ attendantId: ASHA.attendantId, amount: 45000.5, requestId: ASHA.requestId });
    expect(assign.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Float request from Asha Mushi' })).toBeNull());
    expect(requestCard('Juma Said')).toBeTruthy();
  });

  it('rejects a request, showing the server’s answer, and takes it off the list', async () => {
    const user = await renderApproval(managerServer([ASHA, JUMA]));

    await user.click(within(requestCard('Juma Said')).getByRole('button', { name: 'Reject' }));

    expect(await screen.findByText('Float request rejected')).toBeTruthy();
    expect(sentTo(`/manager/float-requests/${JUMA.requestId}/reject`)).toHaveLength(1);
    expect(sentTo('/manager/assign-float')).toHaveLength(0);
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Float request from Juma Said' })).toBeNull());
  });

  it('shows the server’s reason when an approval is refused, and keeps the request', async () => {
    const user = await renderApproval(managerServer([ASHA], { status: 403, error: 'Not your attendant' }));

    await user.click(within(requestCard('Asha Mushi')).getByRole('button', { name: 'Assign Float' }));

    expect((await screen.findByRole('alert')).textContent).toBe('Error: Not your attendant');
    expect(requestCard('Asha Mushi')).toBeTruthy();
  });

  it('puts a refused amount beside that request’s field in plain words, not the server’s field name', async () => {
    const user = await renderApproval((request) =>
      request.method === 'GET'
        ? { body: [ASHA, JUMA] }
        : {
            status: 400,
            body: {
              statusCode: 400,
              code: 'ValidationFailed',
              message: 'amount: must be greater than 0',
              fields: [{ path: 'amount', message: 'must be greater than 0' }],
            },
          },
    );
    const asha = within(requestCard('Asha Mushi'));
    await user.clear(asha.getByLabelText('Amount to assign'));
    await user.type(asha.getByLabelText('Amount to assign'), '7');
    await user.click(asha.getByRole('button', { name: 'Assign Float' }));

    const field = asha.getByLabelText<HTMLInputElement>('Amount to assign');
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    const note = document.getElementById(field.getAttribute('aria-describedby')!)!;
    expect(note.textContent).toBe('Enter an amount above 0 with at most 2 decimals.');
    expect(document.body.textContent).not.toContain('amount:');
    expect(within(requestCard('Juma Said')).getByLabelText('Amount to assign').getAttribute('aria-invalid')).toBeNull();

    await user.type(field, '5');
    expect(field.getAttribute('aria-invalid')).toBeNull();
  });

  it('shows the server’s reason when the list cannot be fetched', async () => {
    await renderApproval(() => ({
      status: 500,
      body: { statusCode: 500, code: 'INTERNAL', message: 'Database down' },
    }));

    expect(screen.getByRole('alert').textContent).toBe('Error: Database down');
  });
});
