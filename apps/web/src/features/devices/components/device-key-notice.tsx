import { useState } from 'react';
import { useTranslation } from '@/lib/i18n';
import { Button } from '@/components/ui/button';

interface DeviceKeyNoticeProps {
  espId: string;
  deviceKey: string;
  onDismiss: () => void;
}

/** The device key of a new machine: the server returns it once and never again (docs/rest-api.md, "Endpoints"). */
export function DeviceKeyNotice({ espId, deviceKey, onDismiss }: DeviceKeyNoticeProps) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const canCopy = typeof navigator.clipboard?.writeText === 'function';

  const copy = () => {
    navigator.clipboard.writeText(deviceKey).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };

  return (
    <section className="key-notice" aria-labelledby="device-key-title">
      <h2 id="device-key-title" className="key-notice-title">
        {t('devices.key.title', { espId })}
      </h2>
      <p>{t('devices.key.text')}</p>
      <div className="key-notice-value">
        <code aria-label={t('devices.key.label')}>{deviceKey}</code>
        {canCopy && (
          <Button variant="secondary" onClick={copy}>
            {copied ? t('devices.key.copied') : t('devices.key.copy')}
          </Button>
        )}
      </div>
      <div className="actions">
        <Button variant="ghost" onClick={onDismiss}>
          {t('devices.key.stored')}
        </Button>
      </div>
    </section>
  );
}
