import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AlarmSettings, MachineHealth, TelemetryReading } from '@wv/contracts';
import { env } from '@/config/env';
import { startApiServer, type ApiServer, type RecordedRequest } from '../../../../test/api-server';
import { startLiveServer, type LiveServer } from '../../../../test/live-server';
import { renderWithQueries } from '../../../../test/render';
import { AlarmSettingsForm } from './alarm-settings-form';
import { HealthSummary } from './health-summary';
import { TelemetryPanel } from './telemetry-panel';

let server: ApiServer;
let live: LiveServer;

const HOUR = 3_600_000;

const ALARM = {
  id: '5f0c0000-0000-4000-8000-000000000001',
  machineId: 'ESP-1',
  kind: 'low_tank' as const,
  severity: 'major' as const,
  status: 'open' as const,
  openedAt: '2026-11-25T08:00:00.000Z',
  acknowledgedAt: null,
  acknowledgedBy: null,
  assigneeId: null,
  clearedAt: null,
  clearedBy: null,
  escalated: false,
  details: { tankLevelPct: 9 },
};

function health(overrides: Partial<MachineHealth> = {}): MachineHealth {
  return {
    machineId: 'ESP-1',
    online: true,
    lastSeen: '2026-11-25T09:00:00.000Z',
    lastSaleAt: '2026-11-25T08:55:00.000Z',
    telemetry: {
      at: '2026-11-25T08:59:00.000Z',
      tankLevelPct: 42.5,
      tdsPpm: 180,
      coldWaterTempC: 6.4,
      coinBoxPct: 71,
      errorCode: null,
    },
    activeAlarms: [ALARM],
    maintenanceUntil: null,
    ...overrides,
  };
}

const reading = (hoursAgo: number, tankLevelPct: number | null): TelemetryReading => ({
  at: new Date(Date.now() - hoursAgo * HOUR).toISOString(),
  tankLevelPct,
  tdsPpm: 150 + hoursAgo,
  coldWaterTempC: 5,
  coinBoxPct: 30,
  errorCode: null,
});

const SETTINGS: AlarmSettings = {
  offlineAfterMinutes: 10,
  noSalesAfterMinutes: 120,
  salesGapAfterMinutes: 30,
  businessHours: { from: '06:00', to: '22:00' },
  lowTankPct: 15,
  maxTdsPpm: 500,
  maxColdWaterTempC: 12,
  maintenanceUntil: null,
};

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

function signIn() {
  localStorage.setItem('token', 'manager-token');
  localStorage.setItem('role', 'manager');
  localStorage.setItem('tokenExpiry', String(Date.now() + 20 * 60_000));
}

const asked = (path: string, method = 'GET') => server.requests.filter((r) => r.path === path && r.method === method);
const readingOf = (label: string) =>
  within(screen.getByRole('listitem', { name: label })).getByText(/./, { selector: '.reading-value' }).textContent;

describe('a machine’s health', () => {
  it('shows its state, the latest readings and the number of active alarms', async () => {
    signIn();
    server.answer(() => ({ body: health() }));
    const { unmount } = renderWithQueries(<HealthSummary espId="ESP-1" />);

    expect(await screen.findByText('Online')).toBeTruthy();
    expect(asked('/machines/ESP-1/health')).toHaveLength(1);
    expect(readingOf('Tank level')).toBe('42.5 %');
    expect(readingOf('TDS')).toBe('180 ppm');
    expect(readingOf('Cold water temperature')).toBe('6.4 °C');
    expect(readingOf('Coin box')).toBe('71 %');
    expect(readingOf('Error code')).toBe('None');
    const state = within(screen.getByRole('region', { name: 'State' }));
    expect(state.getByText('Active alarms').nextSibling?.textContent).toBe('1');
    expect(state.getByText('No maintenance planned')).toBeTruthy();
    unmount();
  });

  it('says so when the machine has never reported readings', async () => {
    signIn();
    const none = {
      at: null,
      tankLevelPct: null,
      tdsPpm: null,
      coldWaterTempC: null,
      coinBoxPct: null,
      errorCode: null,
    };
    server.answer(() => ({ body: health({ telemetry: none, lastSaleAt: null, activeAlarms: [] }) }));
    const { unmount } = renderWithQueries(<HealthSummary espId="ESP-1" />);

    expect(await screen.findByText('The machine has not reported any readings yet.')).toBeTruthy();
    expect(screen.getByText('Last sale').nextSibling?.textContent).toBe('Never');
    unmount();
  });

  it('goes offline at once on the live status event, and asks again when one of its alarms changes', async () => {
    signIn();
    server.answer(() => ({ body: health() }));
    const { unmount } = renderWithQueries(<HealthSummary espId="ESP-1" />);
    await screen.findByText('Online');
    await live.connected();

    live.emit('machine.status', { machineId: 'ESP-2', online: false, lastSeen: '2026-11-25T09:05:00.000Z' });
    live.emit('machine.status', { machineId: 'ESP-1', online: false, lastSeen: '2026-11-25T09:10:00.000Z' });
    expect(await screen.findByText('Offline')).toBeTruthy();

    const before = asked('/machines/ESP-1/health').length;
    live.emit('alarm.opened', { ...ALARM, id: '5f0c0000-0000-4000-8000-000000000002', machineId: 'ESP-2' });
    live.emit('alarm.opened', { ...ALARM, id: '5f0c0000-0000-4000-8000-000000000003', kind: 'offline' });
    await waitFor(() => expect(asked('/machines/ESP-1/health').length).toBe(before + 1));
    unmount();
  });

  it('shows the server’s reason when the machine is not in scope', async () => {
    signIn();
    server.answer(() => ({
      status: 404,
      body: { statusCode: 404, code: 'DEVICE_NOT_FOUND', message: 'Device not found' },
    }));
    renderWithQueries(<HealthSummary espId="ESP-9" />);
    expect((await screen.findByRole('alert')).textContent).toBe('Error loading the machine: Device not found');
  });
});

describe('readings over time', () => {
  function answerReadings(data: TelemetryReading[]) {
    server.answer((request: RecordedRequest) =>
      request.path === '/machines/ESP-1/telemetry' ? { body: { data } } : { status: 404 },
    );
  }
  const telemetryQueries = () => asked('/machines/ESP-1/telemetry').map((r) => r.query);
  const span = (query: Record<string, string>) => Date.parse(query.to) - Date.parse(query.from);

  it('asks for the last 24 hours and draws the four readings with their figures in words', async () => {
    signIn();
    answerReadings([reading(20, 80), reading(10, null), reading(1, 20)]);
    renderWithQueries(<TelemetryPanel espId="ESP-1" />);

    const tank = await screen.findByRole('figure', { name: 'Tank level' }, { timeout: 20_000 });
    expect(within(tank).getByText('2 readings · 20 % to 80 %')).toBeTruthy();
    // Each chart draws its line through the readings.
    for (const figure of screen.getAllByRole('figure')) {
      expect(figure.querySelector('path.recharts-line-curve')?.getAttribute('d')).toMatch(/^M[\d.]+,[\d.]+/);
    }
    expect(
      within(screen.getByRole('figure', { name: 'TDS' })).getByText('3 readings · 151 ppm to 170 ppm'),
    ).toBeTruthy();
    expect(screen.getByRole('figure', { name: 'Cold water temperature' })).toBeTruthy();
    expect(screen.getByRole('figure', { name: 'Coin box' })).toBeTruthy();
    const [query] = telemetryQueries();
    expect(span(query)).toBe(24 * HOUR);
    expect(Math.abs(Date.parse(query.to) - Date.now())).toBeLessThan(2 * 60_000);
  });

  it('asks for another period when one is chosen, and checks chosen dates first', async () => {
    signIn();
    answerReadings([]);
    renderWithQueries(<TelemetryPanel espId="ESP-1" />);
    const user = userEvent.setup({ delay: null });
    expect(await screen.findByText('No readings in this period.')).toBeTruthy();

    await user.selectOptions(screen.getByLabelText('Period'), '7d');
    await waitFor(() => expect(telemetryQueries()).toHaveLength(2));
    expect(span(telemetryQueries()[1])).toBe(7 * 24 * HOUR);

    await user.selectOptions(screen.getByLabelText('Period'), 'custom');
    await user.type(screen.getByLabelText('From'), '2026-11-20');
    await user.type(screen.getByLabelText('To'), '2026-11-10');
    await user.click(screen.getByRole('button', { name: 'Show' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The start must be before the end, at most 31 days apart.',
    );
    expect(telemetryQueries()).toHaveLength(2);

    await user.clear(screen.getByLabelText('To'));
    await user.type(screen.getByLabelText('To'), '2026-11-21');
    await user.click(screen.getByRole('button', { name: 'Show' }));
    await waitFor(() => expect(telemetryQueries()).toHaveLength(3));
    const chosen = telemetryQueries()[2];
    expect(new Date(chosen.from).getTime()).toBe(new Date('2026-11-20T00:00:00').getTime());
    expect(new Date(chosen.to).getTime()).toBe(new Date('2026-11-22T00:00:00').getTime());
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('the alarm settings form', () => {
  function settingsServer(refuse?: string) {
    let saved = { ...SETTINGS };
    return (request: RecordedRequest) => {
      if (request.path !== '/machines/ESP-1/alarm-settings') return { status: 404 };
      if (request.method === 'PUT') {
        if (refuse) return { status: 400, body: { statusCode: 400, code: 'VALIDATION_FAILED', message: refuse } };
        saved = { ...saved, ...(request.body as Partial<AlarmSettings>) };
      }
      return { body: saved };
    };
  }

  async function renderSettings(handler: ReturnType<typeof settingsServer>, canEdit = true, settings?: AlarmSettings) {
    signIn();
    server.answer(settings ? () => ({ body: settings }) : handler);
    renderWithQueries(<AlarmSettingsForm espId="ESP-1" canEdit={canEdit} />);
    await screen.findByLabelText('Low tank below (%)');
    return userEvent.setup({ delay: null });
  }

  const field = (label: string) => screen.getByLabelText<HTMLInputElement>(label);

  it('shows the machine’s settings and sends only what changed', async () => {
    const user = await renderSettings(settingsServer());
    expect(field('Offline after (minutes)').value).toBe('10');
    expect(field('Business hours from').value).toBe('06:00');
    expect(field('Maintenance until').value).toBe('');

    await user.clear(field('Low tank below (%)'));
    await user.type(field('Low tank below (%)'), '20');
    await user.clear(field('Business hours from'));
    await user.type(field('Business hours from'), '07:30');
    await user.type(field('Maintenance until'), '2026-12-01T18:00');
    await user.click(screen.getByRole('button', { name: 'Save alarm settings' }));

    expect(await screen.findByText('Alarm settings saved.')).toBeTruthy();
    const [put] = asked('/machines/ESP-1/alarm-settings', 'PUT');
    expect(put.body).toEqual({
      lowTankPct: 20,
      businessHours: { from: '07:30', to: '22:00' },
      maintenanceUntil: new Date('2026-12-01T18:00').toISOString(),
    });
    // The form shows the saved settings.
    await waitFor(() => expect(field('Low tank below (%)').value).toBe('20'));
    expect(screen.getByRole('button', { name: 'End maintenance' })).toBeTruthy();
  });

  it('ends a maintenance window', async () => {
    const future = new Date(Date.now() + 5 * HOUR).toISOString();
    let saved: AlarmSettings = { ...SETTINGS, maintenanceUntil: future };
    signIn();
    server.answer((request) => {
      if (request.method === 'PUT') saved = { ...saved, ...(request.body as Partial<AlarmSettings>) };
      return { body: saved };
    });
    renderWithQueries(<AlarmSettingsForm espId="ESP-1" canEdit />);
    const user = userEvent.setup({ delay: null });

    await user.click(await screen.findByRole('button', { name: 'End maintenance' }));

    expect(await screen.findByText('Alarm settings saved.')).toBeTruthy();
    expect(asked('/machines/ESP-1/alarm-settings', 'PUT')[0].body).toEqual({ maintenanceUntil: null });
    await waitFor(() => expect(screen.queryByRole('button', { name: 'End maintenance' })).toBeNull());
  });

  it('shows the server’s reason when a value is refused', async () => {
    const user = await renderSettings(
      settingsServer('lowTankPct must be at most 95 (the alarm clears at 5 points above)'),
    );

    await user.clear(field('Low tank below (%)'));
    await user.type(field('Low tank below (%)'), '99');
    await user.click(screen.getByRole('button', { name: 'Save alarm settings' }));

    expect((await screen.findByRole('alert')).textContent).toBe(
      'Error: lowTankPct must be at most 95 (the alarm clears at 5 points above)',
    );
  });

  it('is read-only for someone who may not change it', async () => {
    await renderSettings(settingsServer(), false, SETTINGS);
    expect(field('Low tank below (%)').matches(':disabled')).toBe(true);
    expect(screen.queryByRole('button', { name: 'Save alarm settings' })).toBeNull();
    expect(screen.getByText('Only the owner manager or an administrator can change these settings.')).toBeTruthy();
  });
});
