import { LiveIndicator } from '@/components/ui/live-indicator';
import { Page } from '@/components/ui/page';
import { FloatApproval } from '@/features/float/components/float-approval';

/** Float Approval (/manager/approv/float). */
export function ApproveFloatRoute() {
  return (
    <Page title="Float Approval" lead="Float your attendants asked for, oldest first." actions={<LiveIndicator />}>
      <FloatApproval />
    </Page>
  );
}
