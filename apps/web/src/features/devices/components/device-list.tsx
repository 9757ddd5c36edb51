import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { Esp32IdRow } from '@wv/contracts';
import { useTranslation } from '@/lib/i18n';

interface DeviceListProps {
  devices: readonly Esp32IdRow[];
  /** When given, each device links there (e.g. its settings page). */
  linkTo?: (esp32Id: string) => string;
  /** More lines for a device, supplied by the page (e.g. its attendant). */
  renderExtra?: (esp32Id: string) => ReactNode;
  label?: string;
}

/** Devices with ID and Location; empty text 'No ESP devices assigned'. */
export function DeviceList({ devices, linkTo, renderExtra, label }: DeviceListProps) {
  const { t } = useTranslation();
  if (!devices.length) return <p className="empty">{t('devices.empty')}</p>;
  return (
    <ul className="device-grid" aria-label={label ?? t('devices.list')}>
      {devices.map((device) => {
        const body = (
          <>
            <span className="device-id">
              <span className="muted">{t('devices.id')}</span> {device.esp32Id}
            </span>
            <span>
              <span className="muted">{t('devices.location')}</span> {device.machine_location || t('devices.notSet')}
            </span>
            {renderExtra?.(device.esp32Id)}
          </>
        );
        return (
          <li key={device.esp32Id} className="device-tile">
            {linkTo ? (
              <Link className="device-link" to={linkTo(device.esp32Id)}>
                {body}
              </Link>
            ) : (
              <div className="device-body">{body}</div>
            )}
          </li>
        );
      })}
    </ul>
  );
}
