import { useTranslation } from '@/lib/i18n';
import { LanguageSelect } from '@/lib/i18n/language-select';
import { useSession } from '@/lib/session';
import { Page } from '@/components/ui/page';
import { PaymentsView } from '@/features/payments/components/payments-view';

/** Payments (/payments, admin and manager; docs/web-app.md, "Payments and M-Pesa top-ups"). */
export function PaymentsRoute() {
  const { t } = useTranslation();
  const isAdmin = useSession()?.role === 'admin';
  return (
    <Page
      title={t('payments.title')}
      lead={isAdmin ? t('payments.leadAdmin') : t('payments.lead')}
      actions={<LanguageSelect />}
    >
      <PaymentsView isAdmin={isAdmin} />
    </Page>
  );
}
