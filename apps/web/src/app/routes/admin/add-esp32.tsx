import { useTranslation } from '@/lib/i18n';
import { LanguageSelect } from '@/lib/i18n/language-select';
import { Page } from '@/components/ui/page';
import { AssignIdForm } from '@/features/devices/components/assign-id-form';

export function AddEsp32Route() {
  const { t } = useTranslation();
  return (
    <Page title={t('devices.assign.title')} narrow lead={t('devices.assign.lead')} actions={<LanguageSelect />}>
      <div className="card">
        <AssignIdForm />
      </div>
    </Page>
  );
}
