import { Link, useParams } from 'react-router';
import { paths } from '@/config/paths';
import { Page } from '@/components/ui/page';
import { DeviceSettings } from '@/features/machine-settings/components/device-settings';
import { CoordinatesPanel } from '@/features/fleet/components/coordinates-panel';

/** Device Settings (/device/{espId}): Wi-Fi, tariffs and the location on the map of one machine. */
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
      <div className="stack">
        <DeviceSettings key={espId} espId={espId} />
        <CoordinatesPanel key={`coordinates-${espId}`} espId={espId} />
      </div>
    </Page>
  );
}
