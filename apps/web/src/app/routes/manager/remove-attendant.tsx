import { Page } from '@/components/ui/page';
import { RemoveAttendants } from '@/features/attendants/components/remove-attendants';

export function RemoveAttendantRoute() {
  return (
    <Page title="Remove Attendant" lead="A removed attendant can no longer sign in; their cards and history are kept.">
      <RemoveAttendants />
    </Page>
  );
}
