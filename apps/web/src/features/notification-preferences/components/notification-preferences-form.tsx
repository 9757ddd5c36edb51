import { useState, type FormEvent } from 'react';
import { useTranslation } from '@/lib/i18n';
import { LanguageSelect } from '@/lib/i18n/language-select';
import { errorDetail } from '@/lib/api-client';
import { Button } from '@/components/ui/button';
import { Loading } from '@/components/ui/loading';
import { SelectField } from '@/components/ui/select-field';
import { StatusMessage } from '@/components/ui/status-message';
import { TextField } from '@/components/ui/text-field';
import {
  NOTIFICATION_SEVERITIES as MIN_SEVERITIES,
  type NotificationPreferences,
  type NotificationSeverity as MinSeverity,
} from '@wv/contracts';
import { useNotificationPreferences } from '../api/get-notification-preferences';
import { useUpdateNotificationPreferences } from '../api/update-notification-preferences';

type Result = { tone: 'success' | 'error'; text: string };

const DEFAULT_QUIET = { from: '22:00', to: '06:00' };

/**
 * Alarm notifications of the signed-in user (docs/web-app.md, "Alarms and machine health"): email and SMS on or off, the least
 * severe alarm worth a message, and quiet hours during which messages about non-critical alarms wait.
 * Also the app's language, which the same person chooses here.
 */
export function NotificationPreferencesForm() {
  const { t } = useTranslation();
  const preferences = useNotificationPreferences();
  const [result, setResult] = useState<Result | null>(null);

  if (preferences.isPending) return <Loading />;
  if (preferences.isError) {
    return (
      <StatusMessage tone="error">
        {t('notificationPreferences.loadError', { detail: errorDetail(preferences.error) })}
      </StatusMessage>
    );
  }
  return (
    <div className="stack">
      <PreferencesEditor key={JSON.stringify(preferences.data)} saved={preferences.data} onResult={setResult} />
      {result && <StatusMessage tone={result.tone}>{result.text}</StatusMessage>}
      <LanguageSelect />
    </div>
  );
}

function PreferencesEditor({
  saved,
  onResult,
}: {
  saved: NotificationPreferences;
  onResult: (r: Result | null) => void;
}) {
  const { t } = useTranslation();
  const update = useUpdateNotificationPreferences();
  const [email, setEmail] = useState(saved.email);
  const [sms, setSms] = useState(saved.sms);
  const [minSeverity, setMinSeverity] = useState<MinSeverity>(saved.minSeverity);
  const [quiet, setQuiet] = useState(saved.quietHours !== null);
  const [hours, setHours] = useState(saved.quietHours ?? DEFAULT_QUIET);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (quiet && hours.from === hours.to) {
      onResult({ tone: 'error', text: t('notificationPreferences.sameTimes') });
      return;
    }
    onResult(null);
    update.mutate(
      { email, sms, minSeverity, quietHours: quiet ? hours : null },
      {
        onSuccess: () => onResult({ tone: 'success', text: t('notificationPreferences.saved') }),
        onError: (error) => onResult({ tone: 'error', text: t('common.error', { detail: errorDetail(error) }) }),
      },
    );
  };

  return (
    <form className="form notification-preferences" onSubmit={submit} aria-label={t('notificationPreferences.title')}>
      <p className="muted">{t('notificationPreferences.lead')}</p>
      <fieldset className="checkbox-group">
        <legend>{t('notificationPreferences.channels')}</legend>
        <label className="checkbox">
          <input type="checkbox" checked={email} onChange={(e) => setEmail(e.target.checked)} />
          {t('notificationPreferences.email')}
        </label>
        <label className="checkbox">
          <input type="checkbox" checked={sms} onChange={(e) => setSms(e.target.checked)} />
          {t('notificationPreferences.sms')}
        </label>
      </fieldset>
      <SelectField
        label={t('notificationPreferences.minSeverity')}
        value={minSeverity}
        options={MIN_SEVERITIES.map((value) => ({
          value,
          label: t(`notificationPreferences.minSeverityOption.${value}`),
        }))}
        onChange={(e) => setMinSeverity(e.target.value as MinSeverity)}
      />
      <fieldset className="checkbox-group">
        <legend>{t('notificationPreferences.quietHours')}</legend>
        <label className="checkbox">
          <input type="checkbox" checked={quiet} onChange={(e) => setQuiet(e.target.checked)} />
          {t('notificationPreferences.quietHours')}
        </label>
        <small className="field-hint">{t('notificationPreferences.quietHoursHint')}</small>
        {quiet && (
          <div className="form-grid">
            <TextField
              label={t('notificationPreferences.quietFrom')}
              type="time"
              required
              value={hours.from}
              onChange={(e) => setHours((h) => ({ ...h, from: e.target.value }))}
            />
            <TextField
              label={t('notificationPreferences.quietTo')}
              type="time"
              required
              value={hours.to}
              onChange={(e) => setHours((h) => ({ ...h, to: e.target.value }))}
            />
          </div>
        )}
      </fieldset>
      <div className="actions">
        <Button type="submit" busy={update.isPending}>
          {t('notificationPreferences.save')}
        </Button>
      </div>
    </form>
  );
}
