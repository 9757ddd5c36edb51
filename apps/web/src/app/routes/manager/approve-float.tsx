import { useTranslation } from '@/lib/i18n';
import { LanguageSelect } from '@/lib/i18n/language-select';
import { LiveIndicator } from '@/components/ui/live-indicator';
import { Page } from '@/components/ui/page';
import { FloatApproval } from '@/features/float/components/float-approval';

/** Float Approval (/manager/approv/float). */
export function ApproveFloatRoute() {
  const { t } = useTranslation();
  return (
    <Page
      title={t('float.approval.title')}
      lead={t('float.approval.lead')}
      actions={
        <>
          <LiveIndicator />
          <LanguageSelect />
        </>
      }
    >
      <FloatApproval />
    </Page>
  );
}
