import { paths } from '@/config/paths';
import { Card } from '@/components/ui/card';
import { Page } from '@/components/ui/page';
import { AttendantName } from '@/features/attendants/components/attendant-name';
import { MyDevices } from '@/features/devices/components/my-devices';

/** Manage Devices (/manager/machine/usage, docs/web-app.md, "Screens"): each machine links to its settings. */
export function MachineUsageRoute() {
  return (
    <Page title="Manage Devices" lead="Select a machine block to edit its setting.">
      <Card title="My Machines">
        <MyDevices
          linkTo={paths.manager.device.getHref}
          renderExtra={(esp32Id) => <AttendantName esp32Id={esp32Id} />}
        />
      </Card>
    </Page>
  );
}
