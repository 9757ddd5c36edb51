import { Page } from '@/components/ui/page';
import { AttendantWizard } from '@/features/attendants/components/attendant-wizard';

export function RegisterAttendantRoute() {
  return (
    <Page title="Create New Attendant" lead="An attendant runs one of your machines and registers prepaid cards.">
      <div className="card">
        <AttendantWizard />
      </div>
    </Page>
  );
}
