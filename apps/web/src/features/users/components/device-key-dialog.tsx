import { useEffect, useId, useRef, useState } from 'react';
import { errorDetail } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { StatusMessage } from '@/components/ui/status-message';
import { useRotateDeviceKey } from '../api/rotate-device-key';

interface DeviceKeyDialogProps {
  machine: string;
  onClose: () => void;
}

/**
 * A new key for a machine: asks first (the old key stops working at once), then shows the key once with a
 * copy button and the warning that the machine must get it (docs/rest-api.md, "Endpoints").
 */
export function DeviceKeyDialog({ machine, onClose }: DeviceKeyDialogProps) {
  const { t } = useTranslation();
  const mutation = useRotateDeviceKey();
  if (mutation.data) return <NewKey machine={machine} deviceKey={mutation.data.deviceKey} onClose={onClose} />;
  return (
    <ConfirmDialog
      title={t('users.rotateKey.title')}
      confirmLabel={t('users.rotateKey.confirm')}
      cancelLabel={t('users.cancel')}
      onConfirm={() => mutation.mutate(machine)}
      onCancel={onClose}
      busy={mutation.isPending}
    >
      <p>{t('users.rotateKey.question', { machine })}</p>
      <p className="muted">{t('users.rotateKey.effect')}</p>
      {mutation.isError && (
        <StatusMessage tone="error">{t('users.failed', { detail: errorDetail(mutation.error) })}</StatusMessage>
      )}
    </ConfirmDialog>
  );
}

/** The key, once: closing forgets it (it is never stored nor shown again). */
function NewKey({ machine, deviceKey, onClose }: { machine: string; deviceKey: string; onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const dialog = useRef<HTMLDivElement>(null);
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle');
  const canCopy = typeof navigator.clipboard?.writeText === 'function';

  // The closing button takes the focus: copying is offered, never forced.
  useEffect(() => dialog.current?.querySelector<HTMLButtonElement>('.actions button')?.focus(), []);

  const copyKey = () =>
    navigator.clipboard.writeText(deviceKey).then(
      () => setCopy('copied'),
      () => setCopy('failed'),
    );

  return (
    <div className="dialog-backdrop">
      <div ref={dialog} className="dialog" role="dialog" aria-modal="true" aria-labelledby={titleId}>
        <h2 className="dialog-title" id={titleId}>
          {t('users.rotateKey.keyTitle', { machine })}
        </h2>
        <div className="key-notice">
          <p>{t('users.rotateKey.warning')}</p>
          <div className="key-notice-value">
            <code aria-label={t('users.rotateKey.keyLabel')}>{deviceKey}</code>
            {canCopy && (
              <Button variant="secondary" onClick={() => void copyKey()}>
                {t('users.rotateKey.copy')}
              </Button>
            )}
          </div>
          {copy === 'copied' && <StatusMessage tone="success">{t('users.rotateKey.copied')}</StatusMessage>}
          {copy === 'failed' && <StatusMessage tone="error">{t('users.rotateKey.copyFailed')}</StatusMessage>}
        </div>
        <div className="actions actions-end">
          <Button onClick={onClose}>{t('users.rotateKey.close')}</Button>
        </div>
      </div>
    </div>
  );
}
