import { useTranslation } from '@/lib/i18n';
import { LanguageSelect } from '@/lib/i18n/language-select';
import { Page } from '@/components/ui/page';
import { RemoveAttendants } from '@/features/attendants/components/remove-attendants';

export function RemoveAttendantRoute() {
  const { t } = useTranslation();
  return (
    <Page title={t('attendants.remove.title')} lead={t('attendants.remove.lead')} actions={<LanguageSelect />}>
      <RemoveAttendants />
    </Page>
  );
}
