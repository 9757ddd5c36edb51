import { useEffect, useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from '@/lib/i18n';
import { useFields } from '@/hooks/use-fields';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { StatusMessage } from '@/components/ui/status-message';
import { TextField } from '@/components/ui/text-field';
import { useWifi } from '../api/get-wifi';
import { useUpdateWifi } from '../api/update-wifi';
import { failure, refusal, type Result } from './settings-result';

const EMPTY = { ssid: '', password: '' };

/**
 * Wi-Fi Credentials: SSID and Password, both required, 'Update Wi-Fi' and a Clear that wipes the machine's
 * credentials (it sends both empty). Clearing can take the machine off the network, so it is a danger button
 * that asks first, naming the machine. The fields start from the machine's current credentials.
 */
export function WifiPanel({ espId }: { espId: string }) {
  const { t } = useTranslation();
  const current = useWifi(espId);
  const mutation = useUpdateWifi();
  const fields = useFields(EMPTY);
  const [showPassword, setShowPassword] = useState(false);
  const [touched, setTouched] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [result, setResult] = useState<Result | null>(null);

  const credentials = current.data && 'ssid' in current.data ? current.data : null;
  const { set } = fields;
  useEffect(() => {
    if (credentials && !touched) {
      set('ssid', credentials.ssid);
      set('password', credentials.password);
    }
  }, [credentials, touched, set]);

  const bind = (name: keyof typeof EMPTY) => {
    const binding = fields.bind(name);
    return {
      ...binding,
      onChange: (event: ChangeEvent<HTMLInputElement>) => {
        setTouched(true);
        binding.onChange(event);
      },
    };
  };

  const update = (event: FormEvent) => {
    event.preventDefault();
    setResult(null);
    mutation.mutate(
      { espId, ...fields.values },
      {
        onSuccess: () => setResult({ tone: 'success', text: t('settings.wifi.updated') }),
        onError: (error) => {
          const placed = fields.showServerErrors(error, (name) => t(`settings.wifi.invalid.${name}`));
          setResult(
            refusal(error, placed, t('settings.fieldsRefused'), (detail) => t('settings.wifi.error', { detail })),
          );
        },
      },
    );
  };

  const clear = () => {
    setResult(null);
    mutation.mutate(
      { espId, ssid: '', password: '' },
      {
        onSuccess: () => {
          setConfirming(false);
          setTouched(true);
          fields.reset();
          setResult({ tone: 'success', text: t('settings.wifi.cleared') });
        },
        onError: (error) => {
          setConfirming(false);
          setResult(failure(error, (detail) => t('settings.wifi.clearError', { detail })));
        },
      },
    );
  };

  const fetchProblem = current.isError
    ? failure(current.error, (detail) => t('settings.wifi.fetchError', { detail })).text
    : null;
  const clearing = mutation.isPending && mutation.variables?.ssid === '';

  return (
    <Card title={t('settings.wifi.title')} className="settings-panel">
      <div className="previous" aria-label={t('settings.wifi.current')}>
        {credentials ? (
          <p>
            <span className="muted">{t('settings.wifi.currentNetwork')}</span>{' '}
            <strong>{credentials.ssid || t('settings.wifi.noneCleared')}</strong>
          </p>
        ) : current.data && 'message' in current.data ? (
          <p className="muted">{current.data.message}</p>
        ) : current.isPending ? (
          <p className="muted">{t('common.loading')}</p>
        ) : null}
        {fetchProblem && <StatusMessage tone="error">{fetchProblem}</StatusMessage>}
      </div>
      <form className="form" onSubmit={update} aria-label={t('settings.wifi.title')}>
        <TextField label={t('settings.wifi.ssid')} required autoComplete="off" {...bind('ssid')} />
        <div className="password-field">
          <TextField
            label={t('settings.wifi.password')}
            type={showPassword ? 'text' : 'password'}
            required
            autoComplete="off"
            {...bind('password')}
          />
          <button type="button" className="link-button" onClick={() => setShowPassword((value) => !value)}>
            {showPassword ? t('settings.wifi.hidePassword') : t('settings.wifi.showPassword')}
          </button>
        </div>
        <div className="actions">
          <Button type="submit" busy={mutation.isPending && !clearing}>
            {t('settings.wifi.update')}
          </Button>
          <Button
            variant="danger"
            aria-haspopup="dialog"
            disabled={mutation.isPending}
            onClick={() => {
              setResult(null);
              setConfirming(true);
            }}
          >
            {t('settings.wifi.clear')}
          </Button>
        </div>
        {result && <StatusMessage tone={result.tone}>{result.text}</StatusMessage>}
      </form>
      {confirming && (
        <ConfirmDialog
          title={t('settings.wifi.confirmTitle', { espId })}
          confirmLabel={t('settings.wifi.confirm')}
          cancelLabel={t('common.cancel')}
          busy={clearing}
          onConfirm={clear}
          onCancel={() => setConfirming(false)}
        >
          <p>
            {credentials?.ssid
              ? t('settings.wifi.confirmNetwork', { espId, ssid: credentials.ssid })
              : t('settings.wifi.confirmNoNetwork', { espId })}
          </p>
          <p>{t('settings.wifi.confirmOffline')}</p>
        </ConfirmDialog>
      )}
    </Card>
  );
}
