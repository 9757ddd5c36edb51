import { Card } from '@/components/ui/card';
import { Page } from '@/components/ui/page';
import { useTranslation } from '@/lib/i18n';
import { AddCardForm } from '@/features/cards/components/add-card-form';
import { MyDevices } from '@/features/devices/components/my-devices';
import { FloatBalance } from '@/features/float/components/float-balance';

/** The attendant's home, labelled Add Card (docs/web-app.md, "Screens"): register a prepaid card from float. */
export function AttendantDashboardRoute() {
  const { t } = useTranslation();
  return (
    <Page title={t('roleScreens.addCardTitle')} lead={t('roleScreens.addCardLead')}>
      <div className="split">
        <div className="card">
          <AddCardForm />
        </div>
        <div className="stack split-aside">
          <Card title={t('float.myFloat')}>
            <FloatBalance />
          </Card>
          <Card title={t('profile.myMachine')}>
            <MyDevices />
          </Card>
        </div>
      </div>
    </Page>
  );
}
