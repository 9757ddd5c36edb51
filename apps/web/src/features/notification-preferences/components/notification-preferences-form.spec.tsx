import { afterEach, describe, expect, it } from '@jest/globals';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { NotificationPreferences } from '@wv/contracts';
import { setLanguage } from '@/lib/i18n';
import type { RecordedRequest } from '../../../../test/api-server';
import { useFakeApi } from '../../../../test/fake-api';
import { renderWithQueries } from '../../../../test/render';
import { NotificationPreferencesCard } from './notification-preferences-card';

const server = useFakeApi();

const DEFAULTS: NotificationPreferences = { email: true, sms: true, minSeverity: 'major', quietHours: null };

afterEach(async () => {
  await setLanguage('en');
});

/** The caller's preferences on the server: a PUT changes the fields it sends and answers the whole. */
function preferencesServer(start: NotificationPreferences, refuse?: string) {
  let saved = start;
  return (request: RecordedRequest) => {
    if (request.path !== '/user/notification-preferences') return { status: 404 };
    if (request.method === 'PUT') {
      if (refuse) return { status: 400, body: { statusCode: 400, code: 'VALIDATION_FAILED', message: refuse } };
      saved = { ...saved, ...(request.body as Partial<NotificationPreferences>) };
    }
    return { body: saved };
  };
}

async function renderPreferences(handler: ReturnType<typeof preferencesServer>) {
  localStorage.setItem('token', 'manager-token');
  server.answer(handler);
  renderWithQueries(<NotificationPreferencesCard />);
  await screen.findByRole('form', { name: 'Alarm notifications' });
  return userEvent.setup({ delay: null });
}

const box = (name: string) => screen.getByRole<HTMLInputElement>('checkbox', { name });
const puts = () => server.requests.filter((r) => r.method === 'PUT');

describe('alarm notification preferences', () => {
  it('show the preferences the server holds (the defaults at first)', async () => {
    await renderPreferences(preferencesServer(DEFAULTS));
    expect(box('Email').checked).toBe(true);
    expect(box('SMS').checked).toBe(true);
    expect(screen.getByLabelText<HTMLSelectElement>('Only alarms at least').value).toBe('major');
    expect(box('Quiet hours').checked).toBe(false);
    expect(screen.queryByLabelText('Quiet from')).toBeNull();
  });

  it('save the channels, the least severity and quiet hours', async () => {
    const user = await renderPreferences(preferencesServer(DEFAULTS));

    await user.click(box('SMS'));
    await user.selectOptions(screen.getByLabelText('Only alarms at least'), 'critical');
    await user.click(box('Quiet hours'));
    await user.clear(screen.getByLabelText('Quiet from'));
    await user.type(screen.getByLabelText('Quiet from'), '21:30');
    await user.click(screen.getByRole('button', { name: 'Save preferences' }));

    expect(await screen.findByText('Preferences saved.')).toBeTruthy();
    expect(puts()[0].body).toEqual({
      email: true,
      sms: false,
      minSeverity: 'critical',
      quietHours: { from: '21:30', to: '06:00' },
    });
    // Shown as the server saved them.
    await waitFor(() => expect(box('SMS').checked).toBe(false));
    expect(screen.getByLabelText<HTMLInputElement>('Quiet until').value).toBe('06:00');
  });

  it('turn quiet hours off', async () => {
    const user = await renderPreferences(
      preferencesServer({ ...DEFAULTS, quietHours: { from: '22:00', to: '05:00' } }),
    );
    expect(screen.getByLabelText<HTMLInputElement>('Quiet from').value).toBe('22:00');

    await user.click(box('Quiet hours'));
    await user.click(screen.getByRole('button', { name: 'Save preferences' }));

    expect(await screen.findByText('Preferences saved.')).toBeTruthy();
    expect(puts()[0].body).toMatchObject({ quietHours: null });
  });

  it('refuse quiet hours that start when they end, without asking the server', async () => {
    const user = await renderPreferences(preferencesServer(DEFAULTS));
    await user.click(box('Quiet hours'));
    await user.clear(screen.getByLabelText('Quiet until'));
    await user.type(screen.getByLabelText('Quiet until'), '22:00');
    await user.click(screen.getByRole('button', { name: 'Save preferences' }));

    expect((await screen.findByRole('alert')).textContent).toBe('Quiet hours need a start and an end that differ.');
    expect(puts()).toHaveLength(0);
  });

  it('show the server’s reason when it refuses', async () => {
    const user = await renderPreferences(preferencesServer(DEFAULTS, 'quietHours.to: must be a time of day HH:MM'));
    await user.click(box('Email'));
    await user.click(screen.getByRole('button', { name: 'Save preferences' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Error: quietHours.to: must be a time of day HH:MM');
  });

  it('switch the language of the screen, and remember it', async () => {
    const user = await renderPreferences(preferencesServer(DEFAULTS));

    await user.selectOptions(screen.getByLabelText('Language'), 'sw');

    expect(await screen.findByRole('button', { name: 'Hifadhi mapendeleo' })).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: 'Barua pepe' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Arifa za tahadhari' })).toBeTruthy();
    expect(localStorage.getItem('language')).toBe('sw');
  });
});
