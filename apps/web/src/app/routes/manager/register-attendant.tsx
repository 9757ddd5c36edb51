import { useTranslation } from '@/lib/i18n';
import { LanguageSelect } from '@/lib/i18n/language-select';
import { Page } from '@/components/ui/page';
import { AttendantWizard } from '@/features/attendants/components/attendant-wizard';

export function RegisterAttendantRoute() {
  const { t } = useTranslation();
  return (
    <Page title={t('attendants.create.title')} lead={t('attendants.create.lead')} actions={<LanguageSelect />}>
      <div className="card">
        <AttendantWizard />
      </div>
    </Page>
  );
}
