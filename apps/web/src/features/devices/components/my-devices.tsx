import type { ReactNode } from 'react';
import { errorDetail } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';
import { Loading } from '@/components/ui/loading';
import { StatusMessage } from '@/components/ui/status-message';
import { useMyDevices } from '../api/get-my-devices';
import { DeviceList } from './device-list';

interface MyDevicesProps {
  linkTo?: (esp32Id: string) => string;
  renderExtra?: (esp32Id: string) => ReactNode;
  /** A line above the list, given the number of devices. */
  summary?: (count: number) => ReactNode;
}

/** The caller's devices (GET /user/esp32-ids) with loading and error states. */
export function MyDevices({ linkTo, renderExtra, summary }: MyDevicesProps) {
  const { t } = useTranslation();
  const devices = useMyDevices();
  if (devices.isPending) return <Loading />;
  if (devices.isError)
    return <StatusMessage tone="error">{t('devices.loadError', { detail: errorDetail(devices.error) })}</StatusMessage>;
  return (
    <>
      {summary && devices.data.length > 0 && <p className="summary-line">{summary(devices.data.length)}</p>}
      <DeviceList devices={devices.data} linkTo={linkTo} renderExtra={renderExtra} label={t('devices.mine')} />
    </>
  );
}
