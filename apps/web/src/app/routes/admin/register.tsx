import { useTranslation } from '@/lib/i18n';
import { Page } from '@/components/ui/page';
import { CreateUserWizard } from '@/features/users/components/create-user-wizard';

export function CreateUserRoute() {
  const { t } = useTranslation();
  return (
    <Page title={t('createUser.title')} lead={t('createUser.lead')}>
      <div className="card">
        <CreateUserWizard />
      </div>
    </Page>
  );
}
