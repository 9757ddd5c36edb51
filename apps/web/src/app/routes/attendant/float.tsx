import { useTranslation } from '@/lib/i18n';
import { LanguageSelect } from '@/lib/i18n/language-select';
import { Card } from '@/components/ui/card';
import { Page } from '@/components/ui/page';
import { FloatBalance } from '@/features/float/components/float-balance';
import { FloatHistory } from '@/features/float/components/float-history';
import { RequestFloatForm } from '@/features/float/components/request-float-form';

/** Request Float (/att/manager/float, on the Attendant Dashboard). */
export function RequestFloatRoute() {
  const { t } = useTranslation();
  return (
    <Page title={t('float.request.title')} lead={t('float.request.lead')} actions={<LanguageSelect />}>
      <div className="stack">
        <div className="split">
          <div className="card">
            <RequestFloatForm />
          </div>
          <Card title={t('float.myFloat')}>
            <FloatBalance />
          </Card>
        </div>
        <Card title={t('float.history.title')}>
          <FloatHistory />
        </Card>
      </div>
    </Page>
  );
}
