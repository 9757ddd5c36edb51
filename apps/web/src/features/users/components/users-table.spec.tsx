import { describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AdminUserRow } from '@wv/contracts';
import { UsersRoute } from '@/app/routes/admin/users';
import { useFakeApi } from '../../../../test/fake-api';
import { renderWithQueries } from '../../../../test/render';

const server = useFakeApi();

const MANAGER: AdminUserRow = {
  userId: '6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f0101',
  firstName: 'Neema',
  lastName: 'Manager',
  username: 'neema',
  email: 'neema@example.com',
  phoneNumber: '+255700000101',
  location: 'Dar es Salaam',
  role: 'manager',
  devices: [
    { esp32Id: 'ESP-A', machine_location: 'Kariakoo' },
    { esp32Id: 'ESP-B', machine_location: 'Ubungo' },
  ],
  active: true,
  managerId: null,
};
const ATTENDANT: AdminUserRow = {
  userId: '6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f0102',
  firstName: 'Juma',
  lastName: 'Attendant',
  username: 'juma',
  email: null,
  phoneNumber: '+255700000102',
  location: 'Dar es Salaam',
  role: 'attendant',
  devices: [{ esp32Id: 'ESP-A', machine_location: 'Kariakoo' }],
  active: true,
  managerId: MANAGER.userId,
};

describe('Users table', () => {
  it('shows a dialog opened before the list refreshed with the user as the refreshed list has them', async () => {
    let attendant = ATTENDANT;
    // The list asked for again after the unassign answers only when the test lets it, as a slow network would.
    let releaseList: (() => void) | null = null;
    let listCalls = 0;
    server.answer(async (request) => {
      if (request.method === 'GET' && request.path === '/admin/users') {
        listCalls += 1;
        if (listCalls > 1) await new Promise<void>((resolve) => (releaseList = resolve));
        return { body: [MANAGER, attendant] };
      }
      if (request.method === 'DELETE' && request.path === `/admin/users/${ATTENDANT.userId}/devices/ESP-A`) {
        attendant = { ...ATTENDANT, devices: [] };
        return { body: { message: 'Device unassigned' } };
      }
      return { status: 404 };
    });
    localStorage.setItem('token', 'admin-token');
    renderWithQueries(<UsersRoute />);
    const user = userEvent.setup({ delay: null });

    await user.click(await screen.findByRole('button', { name: 'Unassign ESP-A from Juma Attendant' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Unassign machine' })).getByRole('button', { name: 'Unassign' }),
    );
    await screen.findByText('ESP-A is no longer assigned to Juma Attendant.');
    await waitFor(() => expect(releaseList).not.toBeNull());

    // The row on screen still has the machine: the refreshed list has not come yet.
    await user.click(screen.getByRole('button', { name: 'Assign machine: Juma Attendant' }));
    const dialog = screen.getByRole('dialog', { name: 'Assign a machine to Juma Attendant' });
    expect(dialog.textContent).toContain('This attendant already has a machine. Unassign it first.');

    releaseList!();
    const select = await within(dialog).findByLabelText<HTMLSelectElement>('Machine');
    const offered = Array.from(select.options, (option) => option.value).filter(Boolean);
    expect(offered).toEqual(['ESP-A', 'ESP-B']);
    expect(dialog.textContent).not.toContain('already has a machine');
  });
});
