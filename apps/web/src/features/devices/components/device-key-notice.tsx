import { useState } from 'react';
import { Button } from '@/components/ui/button';

interface DeviceKeyNoticeProps {
  espId: string;
  deviceKey: string;
  onDismiss: () => void;
}

/** The device key of a new machine: the server returns it once and never again (docs/rest-api.md, "Endpoints"). */
export function DeviceKeyNotice({ espId, deviceKey, onDismiss }: DeviceKeyNoticeProps) {
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
        Device key for {espId}: shown only once
      </h2>
      <p>
        Copy this key now and configure it on the machine. It will not be shown again; if it is lost, an administrator
        must issue a new key.
      </p>
      <div className="key-notice-value">
        <code aria-label="Device key">{deviceKey}</code>
        {canCopy && (
          <Button variant="secondary" onClick={copy}>
            {copied ? 'Copied' : 'Copy'}
          </Button>
        )}
      </div>
      <div className="actions">
        <Button variant="ghost" onClick={onDismiss}>
          I have stored the key
        </Button>
      </div>
    </section>
  );
}
