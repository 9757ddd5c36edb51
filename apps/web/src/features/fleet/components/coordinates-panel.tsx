import { useEffect, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { StatusMessage } from '@/components/ui/status-message';
import { TextField } from '@/components/ui/text-field';
import { serverText } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';
import { useMachineCoordinates, useSetMachineCoordinates } from '../api/machine-coordinates';

/** A decimal number of degrees within ±limit, or the words of what is wrong with it. */
function parseDegrees(text: string, limit: number): number | 'missing' | 'invalid' {
  const trimmed = text.trim().replace(',', '.');
  if (!trimmed) return 'missing';
  if (!/^-?\d{1,3}(\.\d+)?$/.test(trimmed)) return 'invalid';
  const value = Number(trimmed);
  return Math.abs(value) <= limit ? value : 'invalid';
}

/**
 * Location on the map (device settings; docs/web-app.md, "Fleet dashboard"): latitude and longitude in decimal
 * degrees (WGS 84, as a phone's map shows them), both or neither; **Clear** removes them.
 */
export function CoordinatesPanel({ espId }: { espId: string }) {
  const { t } = useTranslation();
  const current = useMachineCoordinates(espId);
  const mutation = useSetMachineCoordinates();
  const [latitude, setLatitude] = useState('');
  const [longitude, setLongitude] = useState('');
  const [touched, setTouched] = useState(false);
  const [errors, setErrors] = useState<{ latitude?: string; longitude?: string }>({});
  const [result, setResult] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  useEffect(() => {
    if (current.data && !touched) {
      setLatitude(current.data.latitude === null ? '' : String(current.data.latitude));
      setLongitude(current.data.longitude === null ? '' : String(current.data.longitude));
    }
  }, [current.data, touched]);

  const send = (body: { latitude: number | null; longitude: number | null }, done: string) => {
    setResult(null);
    mutation.mutate(
      { espId, ...body },
      {
        onSuccess: () => setResult({ tone: 'success', text: done }),
        onError: (error) => setResult({ tone: 'error', text: t('common.error', { detail: serverText(error) ?? '' }) }),
      },
    );
  };

  const save = (event: FormEvent) => {
    event.preventDefault();
    const lat = parseDegrees(latitude, 90);
    const lon = parseDegrees(longitude, 180);
    const next = {
      latitude: typeof lat === 'number' ? undefined : t(`fleet.coordinates.${lat}Latitude`),
      longitude: typeof lon === 'number' ? undefined : t(`fleet.coordinates.${lon}Longitude`),
    };
    setErrors(next);
    if (typeof lat === 'number' && typeof lon === 'number') {
      send({ latitude: lat, longitude: lon }, t('fleet.coordinates.saved'));
    }
  };

  const clear = () => {
    setTouched(true);
    setLatitude('');
    setLongitude('');
    setErrors({});
    send({ latitude: null, longitude: null }, t('fleet.coordinates.cleared'));
  };

  const edit = (set: (v: string) => void) => (event: { target: { value: string } }) => {
    setTouched(true);
    set(event.target.value);
  };

  return (
    <Card title={t('fleet.coordinates.title')} className="settings-panel">
      <p className="muted">{t('fleet.coordinates.hint')}</p>
      {current.isError && (
        <StatusMessage tone="error">{t('common.error', { detail: serverText(current.error) ?? '' })}</StatusMessage>
      )}
      <form onSubmit={save} noValidate>
        <TextField
          label={t('fleet.coordinates.latitude')}
          inputMode="decimal"
          placeholder="-6.8161"
          value={latitude}
          onChange={edit(setLatitude)}
          error={errors.latitude}
        />
        <TextField
          label={t('fleet.coordinates.longitude')}
          inputMode="decimal"
          placeholder="39.2804"
          value={longitude}
          onChange={edit(setLongitude)}
          error={errors.longitude}
        />
        <div className="actions">
          <Button type="submit" disabled={mutation.isPending}>
            {t('fleet.coordinates.save')}
          </Button>
          <Button type="button" variant="secondary" onClick={clear} disabled={mutation.isPending}>
            {t('fleet.coordinates.clear')}
          </Button>
        </div>
      </form>
      {result && <StatusMessage tone={result.tone}>{result.text}</StatusMessage>}
    </Card>
  );
}
