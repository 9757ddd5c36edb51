import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { setLanguage } from '@/lib/i18n';
import { useFakeApi } from '../../../../test/fake-api';
import { renderWithQueries } from '../../../../test/render';
import { ATTENDANT_ID, FakeAlarmApi, MANAGER_ID, makeAlarm, signIn } from '../testing/fake-alarm-api';
import { AlarmsView } from './alarms-view';

const server = useFakeApi();

afterEach(async () => {
  await setLanguage('en');
});

async function renderAlarms(api: FakeAlarmApi, { role = 'manager', userId = MANAGER_ID, url = '/alarms' } = {}) {
  signIn(userId, role);
  server.answer(api.handle);
  renderWithQueries(
    <MemoryRouter initialEntries={[url]}>
      <AlarmsView machineHref={(id) => `/machine/${id}/health`} />
    </MemoryRouter>,
  );
  await waitFor(() => expect(screen.queryByText(/^(Loading|Inapakia)\.\.\.$/)).toBeNull());
  return userEvent.setup({ delay: null });
}

const alarmRequests = () => server.requests.filter((r) => r.method === 'GET' && r.path === '/alarms');
const item = (name: string) => screen.getByRole('listitem', { name });
const sentTo = (path: string) => server.requests.filter((r) => r.method === 'POST' && r.path === path);

describe('the Alarms screen', () => {
  it('asks for the active alarms, newest first, and shows what, where, how severe and the readings', async () => {
    const tank = makeAlarm({
      kind: 'low_tank',
      details: { tankLevelPct: 9, lowTankPct: 15, at: '2026-11-25T08:01:00.000Z' },
    });
    const offline = makeAlarm({ kind: 'offline', severity: 'critical', machineId: 'ESP-2', escalated: true });
    const old = makeAlarm({ kind: 'coin_box_full', severity: 'minor', status: 'cleared', clearedBy: 'auto' });
    await renderAlarms(new FakeAlarmApi([tank, offline, old]));

    expect(alarmRequests()[0].query).toEqual({ status: 'active', page: '1', limit: '20' });
    const list = screen.getByRole('list', { name: 'Alarms' });
    expect(
      within(list)
        .getAllByRole('listitem', { name: /at machine/ })
        .map((li) => li.getAttribute('aria-label')),
    ).toEqual(['Offline at machine ESP-2', 'Low tank at machine ESP-1']);
    const offlineItem = within(item('Offline at machine ESP-2'));
    expect(offlineItem.getByText('Critical')).toBeTruthy();
    expect(offlineItem.getByText('Escalated')).toBeTruthy();
    expect(offlineItem.getByRole('link', { name: 'Machine ESP-2' }).getAttribute('href')).toBe('/machine/ESP-2/health');
    const tankItem = within(item('Low tank at machine ESP-1'));
    expect(tankItem.getByText('Tank level 9 %')).toBeTruthy();
    expect(tankItem.getByText('Alarm below 15 %')).toBeTruthy();
    // The reading's time is the opening time, shown once.
    expect(tankItem.queryByText(/^at:/)).toBeNull();
    expect(screen.getByText('2 alarms')).toBeTruthy();
  });

  it('filters by status, kind and machine, asking the server each time from page 1', async () => {
    const api = new FakeAlarmApi([
      makeAlarm({ kind: 'low_tank', machineId: 'ESP-1' }),
      makeAlarm({
        kind: 'water_quality',
        severity: 'critical',
        machineId: 'ESP-2',
        status: 'cleared',
        clearedBy: 'auto',
      }),
    ]);
    const user = await renderAlarms(api);

    await user.selectOptions(screen.getByLabelText('Status'), 'cleared');
    await screen.findByRole('listitem', { name: 'Water quality at machine ESP-2' });
    expect(alarmRequests().at(-1)!.query).toEqual({ status: 'cleared', page: '1', limit: '20' });
    expect(screen.queryByRole('listitem', { name: 'Low tank at machine ESP-1' })).toBeNull();

    await user.selectOptions(screen.getByLabelText('Status'), 'all');
    await user.selectOptions(screen.getByLabelText('Kind'), 'low_tank');
    await user.selectOptions(screen.getByLabelText('Machine'), 'ESP-1');
    await waitFor(() =>
      expect(alarmRequests().at(-1)!.query).toEqual({
        status: 'all',
        kind: 'low_tank',
        machineId: 'ESP-1',
        page: '1',
        limit: '20',
      }),
    );
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Water quality at machine ESP-2' })).toBeNull());
    expect(item('Low tank at machine ESP-1')).toBeTruthy();
  });

  it('opens filtered from a link and says so when nothing matches', async () => {
    await renderAlarms(new FakeAlarmApi([makeAlarm({ machineId: 'ESP-1' })]), {
      url: '/alarms?status=all&machineId=ESP-2',
    });
    expect(alarmRequests()[0].query).toEqual({ status: 'all', machineId: 'ESP-2', page: '1', limit: '20' });
    expect(screen.getByText('No alarms match these filters.')).toBeTruthy();
    expect(screen.getByLabelText<HTMLSelectElement>('Machine').value).toBe('ESP-2');
  });

  it('says what a short dispense and missing sales are about, and names an unknown detail as it is', async () => {
    await renderAlarms(
      new FakeAlarmApi([
        makeAlarm({
          kind: 'short_dispense',
          details: { shortSales: 3, windowMinutes: 60, lastEventId: 'evt-9', volume: 10, dispensed: 6.5 },
        }),
        makeAlarm({ kind: 'sales_gap', machineId: 'ESP-2', details: { gaps: [[4, 7]], missing: 4, pumpRuns: 2 } }),
      ]),
    );
    const shortItem = within(item('Short dispense at machine ESP-1'));
    expect(shortItem.getByText('3 short sales')).toBeTruthy();
    expect(shortItem.getByText('within 60 minutes')).toBeTruthy();
    expect(shortItem.getByText('Last one gave 6.5 L of 10 L')).toBeTruthy();
    expect(shortItem.queryByText(/evt-9/)).toBeNull();
    const gapItem = within(item('Missing sales at machine ESP-2'));
    expect(gapItem.getByText('4 sales missing')).toBeTruthy();
    expect(gapItem.getByText('pumpRuns: 2')).toBeTruthy();
  });

  it('says everything is running when no alarm is active', async () => {
    await renderAlarms(new FakeAlarmApi([]));
    expect(screen.getByText('No active alarms. Everything is running.')).toBeTruthy();
  });

  it('acknowledges an open alarm, which then shows who did it', async () => {
    const alarm = makeAlarm({ kind: 'device_error', details: { errorCode: 'E42' } });
    const user = await renderAlarms(new FakeAlarmApi([alarm]));
    const row = within(item('Device error at machine ESP-1'));

    await user.click(row.getByRole('button', { name: 'Acknowledge' }));

    expect(await row.findByText('Alarm acknowledged.')).toBeTruthy();
    expect(sentTo(`/alarms/${alarm.id}/acknowledge`)).toHaveLength(1);
    await waitFor(() => expect(row.getByText(/^Acknowledged by You at/)).toBeTruthy());
    expect(row.getAllByText('Acknowledged').length).toBeGreaterThan(0);
    expect(row.queryByRole('button', { name: 'Acknowledge' })).toBeNull();
  });

  it('shows the server’s reason when an action is refused', async () => {
    const alarm = makeAlarm();
    const api = new FakeAlarmApi([alarm]);
    const user = await renderAlarms(api);
    // Someone else acknowledged it meanwhile: the server refuses with 409.
    api.find(alarm.id)!.status = 'acknowledged';

    await user.click(within(item('Low tank at machine ESP-1')).getByRole('button', { name: 'Acknowledge' }));

    expect((await screen.findByRole('alert')).textContent).toBe('Error: The alarm is not open');
  });

  it('shows the notes and the messages sent, and adds a note', async () => {
    const alarm = makeAlarm({ kind: 'water_quality', severity: 'critical', details: { tdsPpm: 812 } });
    const api = new FakeAlarmApi([alarm]);
    api.details.set(alarm.id, {
      notes: [{ id: 'n1', userId: ATTENDANT_ID, text: 'Filter looks dirty', at: '2026-11-25T08:30:00Z' }],
      notifications: [
        { channel: 'sms', to: '+255700000009', status: 'sent', attempts: 1, at: '2026-11-25T08:01:00Z' },
        { channel: 'email', to: 'owner@example.com', status: 'failed', attempts: 3, at: '2026-11-25T08:05:00Z' },
      ],
    });
    const user = await renderAlarms(api);
    const row = within(item('Water quality at machine ESP-1'));

    await user.click(row.getByRole('button', { name: 'Details' }));

    const notes = within(await row.findByRole('region', { name: 'Notes' }));
    expect(notes.getByText('Filter looks dirty')).toBeTruthy();
    // The attendant is named from the manager's list of attendants.
    await waitFor(() => expect(notes.getByText(/^Asha Mushi · /)).toBeTruthy());
    const messages = within(row.getByRole('region', { name: 'Messages sent' }));
    expect(messages.getByText(/\+255700000009/)).toBeTruthy();
    expect(messages.getByText('Sent')).toBeTruthy();
    expect(messages.getByText('Failed')).toBeTruthy();
    expect(messages.getByText(/3 attempts/)).toBeTruthy();

    await user.type(row.getByLabelText('Add a note'), '  Replaced the filter  ');
    await user.click(row.getByRole('button', { name: 'Add note' }));

    expect(await row.findByText('Note added.')).toBeTruthy();
    expect(sentTo(`/alarms/${alarm.id}/notes`)[0].body).toEqual({ text: 'Replaced the filter' });
    expect(await notes.findByText('Replaced the filter')).toBeTruthy();
    expect(row.getByLabelText<HTMLTextAreaElement>('Add a note').value).toBe('');
  });

  it('lets the manager assign the alarm to the machine’s attendant or themselves, and clear it', async () => {
    const alarm = makeAlarm({ machineId: 'ESP-1' });
    const user = await renderAlarms(new FakeAlarmApi([alarm]));
    const row = within(item('Low tank at machine ESP-1'));
    await user.click(row.getByRole('button', { name: 'Details' }));

    const assignTo = await row.findByLabelText<HTMLSelectElement>('Assign to');
    // The manager and the attendant of ESP-1; not Juma, who runs ESP-2.
    await waitFor(() =>
      expect([...assignTo.options].map((o) => o.textContent)).toEqual(['Choose a person', 'You', 'Asha Mushi']),
    );
    await user.selectOptions(assignTo, ATTENDANT_ID);
    await user.click(row.getByRole('button', { name: 'Assign' }));

    expect(await row.findByText('Alarm assigned.')).toBeTruthy();
    expect(sentTo(`/alarms/${alarm.id}/assign`)[0].body).toEqual({ userId: ATTENDANT_ID });
    await waitFor(() => expect(row.getByText(/Assigned to Asha Mushi/)).toBeTruthy());

    await user.click(row.getByRole('button', { name: 'Clear' }));
    expect(await row.findByText('Alarm cleared.')).toBeTruthy();
    expect(sentTo(`/alarms/${alarm.id}/clear`)).toHaveLength(1);
    // A cleared alarm leaves the active list.
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Low tank at machine ESP-1' })).toBeNull());
  });

  it('offers an attendant Acknowledge and notes, but not Assign or Clear, and no link to the machine', async () => {
    const alarm = makeAlarm();
    const user = await renderAlarms(new FakeAlarmApi([alarm], ATTENDANT_ID), {
      role: 'attendant',
      userId: ATTENDANT_ID,
    });
    const row = within(item('Low tank at machine ESP-1'));
    expect(row.getByRole('button', { name: 'Acknowledge' })).toBeTruthy();

    await user.click(row.getByRole('button', { name: 'Details' }));
    await row.findByRole('region', { name: 'Notes' });
    expect(row.queryByRole('button', { name: 'Clear' })).toBeNull();
    expect(row.queryByLabelText('Assign to')).toBeNull();
    expect(row.getByLabelText('Add a note')).toBeTruthy();
    expect(server.requests.some((r) => r.path === '/manager/attendants' || r.path === '/admin/users')).toBe(false);
  });

  it('speaks Kiswahili when that language is chosen', async () => {
    await setLanguage('sw');
    await renderAlarms(new FakeAlarmApi([makeAlarm({ kind: 'low_tank', details: { tankLevelPct: 9 } })]));

    const row = within(item('Tangi liko chini kwenye mashine ESP-1'));
    expect(row.getByText('Kubwa')).toBeTruthy();
    expect(row.getByText('Wazi')).toBeTruthy();
    expect(row.getByRole('button', { name: 'Pokea' })).toBeTruthy();
    expect(row.getByText('Kiwango cha tangi 9 %')).toBeTruthy();
    expect(screen.getByLabelText('Hali')).toBeTruthy();
    expect(document.documentElement.lang).toBe('sw');
  });
});
