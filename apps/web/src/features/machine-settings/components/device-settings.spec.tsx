import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setLanguage } from '@/lib/i18n';
import type { RecordedRequest } from '../../../../test/api-server';
import { useFakeApi } from '../../../../test/fake-api';
import { renderWithQueries } from '../../../../test/render';
import { TariffsPanel } from './tariffs-panel';
import { WifiPanel } from './wifi-panel';

const server = useFakeApi();
const ESP = 'ESP-WIFI-1';

/** A machine with stored Wi-Fi; PUT /update_wifi_credentials answers as `update` says. */
function machineServer(update: (request: RecordedRequest) => { status?: number; body?: unknown } = () => ({})) {
  return (request: RecordedRequest) => {
    if (request.path === `/get_wifi_credentials/${ESP}`) return { body: { ssid: 'Kiosk-Net', password: 'maji-safi' } };
    if (request.path === `/machine_settings/${ESP}`) return { body: { message: 'No settings found' } };
    if (request.path === '/update_wifi_credentials') {
      const answer = update(request);
      return { status: answer.status ?? 200, body: answer.body ?? { message: 'Wi-Fi credentials updated' } };
    }
    if (request.path === '/insert_tariffs') return update(request);
    return { status: 404 };
  };
}

const validation = (fields: { path: string; message: string }[]) => ({
  status: 400,
  body: {
    statusCode: 400,
    code: 'ValidationFailed',
    message: fields.map((f) => `${f.path}: ${f.message}`).join('; '),
    fields,
  },
});

afterEach(async () => {
  await setLanguage('en');
});

async function renderWifi(handler: ReturnType<typeof machineServer>) {
  localStorage.setItem('token', 'manager-token');
  server.answer(handler);
  renderWithQueries(<WifiPanel espId={ESP} />);
  await screen.findByText('Kiosk-Net');
  return userEvent.setup({ delay: null });
}

const updates = () => server.requests.filter((r) => r.path === '/update_wifi_credentials');

describe('Wi-Fi panel', () => {
  it('asks before clearing, naming the machine and that it may go offline; Cancel sends nothing', async () => {
    const user = await renderWifi(machineServer());
    const clear = screen.getByRole('button', { name: 'Clear Wi-Fi…' });
    expect(clear.className).toContain('btn-danger');

    await user.click(clear);
    const dialog = screen.getByRole('dialog', { name: `Clear the Wi-Fi of machine ${ESP}?` });
    expect(dialog.textContent).toContain(`Machine ${ESP} forgets the network “Kiosk-Net”.`);
    expect(dialog.textContent).toContain('If it has no other network, it goes offline');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    expect(screen.queryByRole('dialog')).toBeNull();
    expect(updates()).toHaveLength(0);
    expect(screen.getByLabelText<HTMLInputElement>('SSID').value).toBe('Kiosk-Net');
  });

  it('clears the credentials once confirmed', async () => {
    const user = await renderWifi(machineServer());
    await user.click(screen.getByRole('button', { name: 'Clear Wi-Fi…' }));
    await user.click(screen.getByRole('button', { name: 'Yes, clear Wi-Fi' }));

    expect((await screen.findByRole('status')).textContent).toBe('Wi-Fi credentials cleared successfully!');
    expect(updates().map((r) => r.body)).toEqual([{ espId: ESP, ssid: '', password: '' }]);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByLabelText<HTMLInputElement>('SSID').value).toBe('');
  });

  it('names a refused SSID beside the field in plain words, not the server’s field name', async () => {
    const user = await renderWifi(
      machineServer(() => validation([{ path: 'ssid', message: 'SSID is at most 32 characters' }])),
    );
    const ssid = screen.getByLabelText<HTMLInputElement>('SSID');
    await user.clear(ssid);
    await user.type(ssid, 'x'.repeat(40));
    await user.click(screen.getByRole('button', { name: 'Update Wi-Fi' }));

    await waitFor(() => expect(ssid.getAttribute('aria-invalid')).toBe('true'));
    const note = document.getElementById(ssid.getAttribute('aria-describedby')!)!;
    expect(note.textContent).toBe('Enter the network name (SSID), at most 32 characters.');
    expect(document.body.textContent).not.toContain('ssid:');
    expect(screen.getByText('Check the marked fields.')).toBeTruthy();

    await user.type(ssid, 'y');
    expect(ssid.getAttribute('aria-invalid')).toBeNull();
  });

  it('speaks Kiswahili', async () => {
    await setLanguage('sw');
    const user = await renderWifi(machineServer());
    await user.click(screen.getByRole('button', { name: 'Futa Wi-Fi…' }));
    expect(screen.getByRole('dialog', { name: `Futa Wi-Fi ya mashine ${ESP}?` })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Ghairi' })).toBeTruthy();
  });
});

describe('Tariffs panel', () => {
  it('Clear form only empties the fields', async () => {
    localStorage.setItem('token', 'manager-token');
    server.answer(machineServer());
    renderWithQueries(<TariffsPanel espId={ESP} />);
    const user = userEvent.setup({ delay: null });
    await screen.findByText('No settings found');
    await user.type(screen.getByLabelText('Cold Tariffs'), '50');

    const clear = screen.getByRole('button', { name: 'Clear form' });
    expect(clear.className).toContain('btn-secondary');
    await user.click(clear);

    expect(screen.getByLabelText<HTMLInputElement>('Cold Tariffs').value).toBe('');
    expect(server.requests.filter((r) => r.method !== 'GET')).toHaveLength(0);
  });

  it('puts each refused value beside its field, in plain words', async () => {
    localStorage.setItem('token', 'manager-token');
    server.answer(
      machineServer(() =>
        validation([
          {
            path: 'coldTariffs',
            message: 'Cold tariffs must be a decimal number from 0 to 1000000000 with at most 2 decimals',
          },
          {
            path: 'coldCalb',
            message: 'Cold calibration must be a decimal number from 0 to 1000000000 with at most 3 decimals',
          },
        ]),
      ),
    );
    renderWithQueries(<TariffsPanel espId={ESP} />);
    const user = userEvent.setup({ delay: null });
    await screen.findByText('No settings found');
    await user.type(screen.getByLabelText('Cold Tariffs'), 'cheap');
    await user.type(screen.getByLabelText('Fresh Tariffs'), '40');
    await user.type(screen.getByLabelText('Fresh Calb'), '1.5');
    await user.type(screen.getByLabelText('Cold Calb'), '1.2345');
    await user.click(screen.getByRole('button', { name: 'Insert Tariffs' }));

    const cold = screen.getByLabelText('Cold Tariffs');
    await waitFor(() => expect(cold.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(cold.getAttribute('aria-describedby')!)!.textContent).toMatch(
      /^Enter the cold water price as a number/,
    );
    expect(screen.getByLabelText('Cold Calb').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('Fresh Tariffs').getAttribute('aria-invalid')).toBeNull();
    expect(document.body.textContent).not.toMatch(/coldTariffs|coldCalb/);
  });
});
