import { useState, type FormEvent } from 'react';
import { useTranslation } from '@/lib/i18n';
import { errorDetail } from '@/lib/api-client';
import { Button } from '@/components/ui/button';
import { Loading } from '@/components/ui/loading';
import { StatusMessage } from '@/components/ui/status-message';
import { TextField } from '@/components/ui/text-field';
import type { AlarmSettings, AlarmSettingsUpdate } from '@wv/contracts';
import { useAlarmSettings } from '../api/get-alarm-settings';
import { useUpdateAlarmSettings } from '../api/update-alarm-settings';

type NumberKey =
  | 'offlineAfterMinutes'
  | 'noSalesAfterMinutes'
  | 'salesGapAfterMinutes'
  | 'lowTankPct'
  | 'maxTdsPpm'
  | 'maxColdWaterTempC';

const NUMBER_FIELDS: { key: NumberKey; min: number; max?: number; step: string }[] = [
  { key: 'offlineAfterMinutes', min: 1, step: '1' },
  { key: 'noSalesAfterMinutes', min: 1, step: '1' },
  { key: 'salesGapAfterMinutes', min: 1, step: '1' },
  { key: 'lowTankPct', min: 0, max: 100, step: '1' },
  { key: 'maxTdsPpm', min: 0, step: '1' },
  { key: 'maxColdWaterTempC', min: -10, max: 60, step: '0.1' },
];

type Draft = Record<NumberKey, string> & { from: string; to: string; maintenanceUntil: string };

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant as the value of a `datetime-local` input, in the browser's time. */
function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

const toDraft = (s: AlarmSettings): Draft => ({
  offlineAfterMinutes: String(s.offlineAfterMinutes),
  noSalesAfterMinutes: String(s.noSalesAfterMinutes),
  salesGapAfterMinutes: String(s.salesGapAfterMinutes),
  lowTankPct: String(s.lowTankPct),
  maxTdsPpm: String(s.maxTdsPpm),
  maxColdWaterTempC: String(s.maxColdWaterTempC),
  from: s.businessHours.from,
  to: s.businessHours.to,
  maintenanceUntil: toLocalInput(s.maintenanceUntil),
});

/** What the form changed, as the PUT body: only those fields (the endpoint takes any subset). */
function changesOf(saved: AlarmSettings, draft: Draft): AlarmSettingsUpdate {
  const changes: AlarmSettingsUpdate = {};
  for (const { key } of NUMBER_FIELDS) {
    const value = Number(draft[key]);
    if (value !== saved[key]) changes[key] = value;
  }
  if (draft.from !== saved.businessHours.from || draft.to !== saved.businessHours.to) {
    changes.businessHours = { from: draft.from, to: draft.to };
  }
  if (draft.maintenanceUntil !== toLocalInput(saved.maintenanceUntil)) {
    changes.maintenanceUntil = draft.maintenanceUntil ? new Date(draft.maintenanceUntil).toISOString() : null;
  }
  return changes;
}

/**
 * A machine's alarm settings (docs/alarms.md, "Settings"): thresholds, business hours and a maintenance window
 * during which no alarm opens. Only the owner manager or an admin may change them; others read them.
 */
export function AlarmSettingsForm({ espId, canEdit }: { espId: string; canEdit: boolean }) {
  const { t } = useTranslation();
  const settings = useAlarmSettings(espId);
  // Kept here: a saved change remounts the editor with the new settings, and the message must stay.
  const [result, setResult] = useState<Result | null>(null);
  if (settings.isPending) return <Loading />;
  if (settings.isError) {
    return (
      <StatusMessage tone="error">
        {t('alarmSettings.loadError', { detail: errorDetail(settings.error) })}
      </StatusMessage>
    );
  }
  return (
    <>
      <SettingsEditor
        key={JSON.stringify(settings.data)}
        espId={espId}
        saved={settings.data}
        canEdit={canEdit}
        onResult={setResult}
      />
      {result && <StatusMessage tone={result.tone}>{result.text}</StatusMessage>}
    </>
  );
}

type Result = { tone: 'success' | 'error'; text: string };

interface SettingsEditorProps {
  espId: string;
  saved: AlarmSettings;
  canEdit: boolean;
  onResult: (result: Result | null) => void;
}

function SettingsEditor({ espId, saved, canEdit, onResult: setResult }: SettingsEditorProps) {
  const { t } = useTranslation();
  const update = useUpdateAlarmSettings();
  const [draft, setDraft] = useState<Draft>(() => toDraft(saved));
  const set = (name: keyof Draft) => (event: { target: { value: string } }) =>
    setDraft((d) => ({ ...d, [name]: event.target.value }));

  const save = (next: Draft) => {
    setResult(null);
    const changes = changesOf(saved, next);
    if (Object.keys(changes).length === 0) {
      setResult({ tone: 'success', text: t('alarmSettings.saved') });
      return;
    }
    update.mutate(
      { espId, changes },
      {
        onSuccess: () => setResult({ tone: 'success', text: t('alarmSettings.saved') }),
        onError: (error) => setResult({ tone: 'error', text: t('common.error', { detail: errorDetail(error) }) }),
      },
    );
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save(draft);
  };

  const maintenanceActive = saved.maintenanceUntil !== null && Date.parse(saved.maintenanceUntil) > Date.now();

  return (
    <form className="form alarm-settings" onSubmit={onSubmit} aria-label={t('alarmSettings.title')}>
      <p className="muted">{t('alarmSettings.lead')}</p>
      {!canEdit && <p className="muted">{t('alarmSettings.readOnly')}</p>}
      <fieldset className="form-grid" disabled={!canEdit}>
        {NUMBER_FIELDS.map((field) => (
          <TextField
            key={field.key}
            label={t(`alarmSettings.${field.key}`)}
            type="number"
            inputMode="decimal"
            required
            min={field.min}
            max={field.max}
            step={field.step}
            value={draft[field.key]}
            onChange={set(field.key)}
          />
        ))}
        <TextField
          label={t('alarmSettings.businessFrom')}
          type="time"
          required
          value={draft.from}
          onChange={set('from')}
        />
        <TextField label={t('alarmSettings.businessTo')} type="time" required value={draft.to} onChange={set('to')} />
        <TextField
          label={t('alarmSettings.maintenanceUntil')}
          type="datetime-local"
          hint={t('alarmSettings.maintenanceHint')}
          value={draft.maintenanceUntil}
          onChange={set('maintenanceUntil')}
        />
      </fieldset>
      {canEdit && (
        <div className="actions">
          <Button type="submit" busy={update.isPending}>
            {t('alarmSettings.save')}
          </Button>
          {maintenanceActive && (
            <Button
              variant="secondary"
              disabled={update.isPending}
              onClick={() => {
                const next = { ...draft, maintenanceUntil: '' };
                setDraft(next);
                save(next);
              }}
            >
              {t('alarmSettings.endMaintenance')}
            </Button>
          )}
        </div>
      )}
    </form>
  );
}
