import { Card } from '@/components/ui/card';
import { LiveIndicator } from '@/components/ui/live-indicator';
import { Page } from '@/components/ui/page';
import { ActivityFeed } from '@/features/activity/components/activity-feed';
import { MachineStatusList } from '@/features/sales-dashboard/components/machine-status-list';

/** Machine activity (/manager/machine/activity): live sales and online/offline changes. */
export function MachineActivityRoute() {
  return (
    <Page
      title="Machine Activity"
      lead="Sales and connection changes of your machines, as they happen."
      actions={<LiveIndicator />}
    >
      <div className="activity-layout">
        <Card title="Machines" className="activity-machines">
          <MachineStatusList />
        </Card>
        <Card title="Latest activity" className="activity-feed">
          <ActivityFeed />
        </Card>
      </div>
    </Page>
  );
}
