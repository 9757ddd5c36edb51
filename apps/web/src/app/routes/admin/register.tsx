import { Page } from '@/components/ui/page';
import { CreateUserWizard } from '@/features/users/components/create-user-wizard';

export function CreateUserRoute() {
  return (
    <Page title="Create Users" lead="Register a manager together with the machine they own.">
      <div className="card">
        <CreateUserWizard />
      </div>
    </Page>
  );
}
