import { Page } from '@/components/ui/page';
import { AssignIdForm } from '@/features/devices/components/assign-id-form';

export function AddEsp32Route() {
  return (
    <Page
      title="Assign ESP ID to MAC Address"
      narrow
      lead="A new machine announces its MAC address when it first connects; give it an ESP ID here."
    >
      <div className="card">
        <AssignIdForm />
      </div>
    </Page>
  );
}
