import { Link, useParams } from 'react-router';
import { paths } from '@/config/paths';
import { Page } from '@/components/ui/page';
import { DeviceSettings } from '@/features/machine-settings/components/device-settings';

/** Device Settings (/device/{espId}): Wi-Fi and tariffs of one machine. */
export function DeviceSettingsRoute() {
  const espId = useParams().espId ?? '';
  return (
    <Page
      title="Device Settings"
      lead={`Machine ${espId}`}
      actions={
        <Link className="btn btn-secondary btn-sm" to={paths.manager.machineHealth.getHref(espId)}>
          Machine health
        </Link>
      }
    >
      <DeviceSettings key={espId} espId={espId} />
    </Page>
  );
}
