import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { env } from '@/config/env';
import { startApiServer, type ApiServer } from '../../../../test/api-server';
import { startLiveServer, type LiveServer } from '../../../../test/live-server';
import { renderWithQueries } from '../../../../test/render';
import { FakeAlarmApi, MANAGER_ID, makeAlarm, signIn } from '../testing/fake-alarm-api';
import { ActiveAlarmBadge } from './active-alarm-badge';
import { AlarmLive } from './alarm-live';
import { AlarmsView } from './alarms-view';

let server: ApiServer;
let live: LiveServer;

beforeAll(async () => {
  server = await startApiServer();
  Object.assign(env, { apiUrl: server.apiUrl });
  live = await startLiveServer();
});
afterAll(async () => {
  await live.close();
  await server.close();
});
afterEach(() => {
  server.requests.length = 0;
  localStorage.clear();
});

/** What every signed-in page carries (the navigation's count and the live notices), on `url`. */
async function renderShell(api: FakeAlarmApi, url: string) {
  signIn(MANAGER_ID, 'manager');
  server.answer(api.handle);
  const view = renderWithQueries(
    <MemoryRouter initialEntries={[url]}>
      <nav aria-label="Main">
        Alarms <ActiveAlarmBadge />
      </nav>
      <AlarmLive alarmsHref="/alarms" />
      {url.startsWith('/alarms') && <AlarmsView />}
    </MemoryRouter>,
  );
  await live.connected();
  return view;
}

const badge = () => within(screen.getByRole('navigation', { name: 'Main' })).queryByText(/^\d+$/);

describe('alarms, live', () => {
  it('count the active alarms beside the navigation link, over a connection made with the signed-in token', async () => {
    const { unmount } = await renderShell(
      new FakeAlarmApi([makeAlarm(), makeAlarm({ kind: 'offline' })]),
      '/elsewhere',
    );

    await waitFor(() => expect(badge()?.textContent).toBe('2'));
    expect(screen.getByLabelText('2 active alarms')).toBeTruthy();
    const countRequest = server.requests.find((r) => r.path === '/alarms')!;
    expect(countRequest.query).toEqual({ status: 'active', page: '1', limit: '1' });
    expect(live.tokens.at(-1)).toBe(localStorage.getItem('token'));
    unmount();
  });

  it('announce a new alarm on any other page and raise the count', async () => {
    const api = new FakeAlarmApi([makeAlarm()]);
    const { unmount } = await renderShell(api, '/manager/dashboard');
    await waitFor(() => expect(badge()?.textContent).toBe('1'));

    const opened = makeAlarm({ kind: 'water_quality', severity: 'critical', machineId: 'ESP-2' });
    api.add(opened);
    live.emit('alarm.opened', opened);

    const notice = await screen.findByRole('alert');
    expect(notice.textContent).toContain('New alarm: Water quality at machine ESP-2');
    expect(within(notice).getByRole('link', { name: 'View' }).getAttribute('href')).toBe('/alarms');
    await waitFor(() => expect(badge()?.textContent).toBe('2'));
    unmount();
  });

  it('put a new alarm at the top of the Alarms screen without a notice, and move a cleared one off it', async () => {
    const first = makeAlarm({ kind: 'low_tank' });
    const api = new FakeAlarmApi([first]);
    const { unmount } = await renderShell(api, '/alarms');
    await screen.findByRole('listitem', { name: 'Low tank at machine ESP-1' });

    const opened = makeAlarm({ kind: 'offline', severity: 'critical', machineId: 'ESP-2' });
    api.add(opened);
    live.emit('alarm.opened', opened);

    await waitFor(() =>
      expect(
        screen.getAllByRole('listitem', { name: /at machine/ }).map((li) => li.getAttribute('aria-label')),
      ).toEqual(['Offline at machine ESP-2', 'Low tank at machine ESP-1']),
    );
    expect(screen.queryByRole('alert')).toBeNull();
    await waitFor(() => expect(badge()?.textContent).toBe('2'));

    // Cleared by itself on the server; the event carries the new state.
    Object.assign(api.find(first.id)!, { status: 'cleared', clearedAt: new Date().toISOString(), clearedBy: 'auto' });
    live.emit('alarm.updated', api.find(first.id));

    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Low tank at machine ESP-1' })).toBeNull());
    await waitFor(() => expect(badge()?.textContent).toBe('1'));
    unmount();
  });

  it('change an alarm in place when someone else acknowledges it', async () => {
    const alarm = makeAlarm({ kind: 'no_sales' });
    const api = new FakeAlarmApi([alarm]);
    const { unmount } = await renderShell(api, '/alarms');
    const row = within(await screen.findByRole('listitem', { name: 'No sales at machine ESP-1' }));
    expect(row.getByRole('button', { name: 'Acknowledge' })).toBeTruthy();

    // Acknowledged by another user on the server; the event carries the new state.
    Object.assign(api.find(alarm.id)!, {
      status: 'acknowledged',
      acknowledgedAt: '2026-11-25T09:00:00.000Z',
      acknowledgedBy: '0b9d8c7e-9999-4a43-9d8e-7c1f4b1a0009',
    });
    live.emit('alarm.updated', api.find(alarm.id));

    await waitFor(() => expect(row.queryByRole('button', { name: 'Acknowledge' })).toBeNull());
    expect(row.getByText(/^Acknowledged by 0b9d8c7e-9999/)).toBeTruthy();
    unmount();
  });

  it('ignore an event that does not match the contract', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
    const api = new FakeAlarmApi([]);
    const { unmount } = await renderShell(api, '/elsewhere');

    live.emit('alarm.opened', { id: 'x', kind: 'kaboom' });
    const opened = makeAlarm({ kind: 'coin_box_full', severity: 'minor' });
    api.add(opened);
    live.emit('alarm.opened', opened);

    expect((await screen.findByRole('alert')).textContent).toContain('Coin box full at machine ESP-1');
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(warn).toHaveBeenCalledWith('Ignored a malformed "alarm.opened" event', expect.anything());
    warn.mockRestore();
    unmount();
  });
});
