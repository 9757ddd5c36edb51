import { useParams } from 'react-router';
import { Page } from '@/components/ui/page';
import { DeviceSettings } from '@/features/machine-settings/components/device-settings';

/** Device Settings (/device/{espId}): Wi-Fi and tariffs of one machine. */
export function DeviceSettingsRoute() {
  const espId = useParams().espId ?? '';
  return (
    <Page title="Device Settings" lead={`Machine ${espId}`}>
      <DeviceSettings key={espId} espId={espId} />
    </Page>
  );
}
