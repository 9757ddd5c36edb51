import { useTranslation } from '@/lib/i18n';
import { LanguageSelect } from '@/lib/i18n/language-select';
import { Card } from '@/components/ui/card';
import { LiveIndicator } from '@/components/ui/live-indicator';
import { Page } from '@/components/ui/page';
import { ActivityFeed } from '@/features/activity/components/activity-feed';
import { MachineStatusList } from '@/features/sales-dashboard/components/machine-status-list';

/** Machine activity (/manager/machine/activity): live sales and online/offline changes. */
export function MachineActivityRoute() {
  const { t } = useTranslation();
  return (
    <Page
      title={t('activity.title')}
      lead={t('activity.lead')}
      actions={
        <>
          <LiveIndicator />
          <LanguageSelect />
        </>
      }
    >
      <div className="activity-layout">
        <Card title={t('activity.machines')} className="activity-machines">
          <MachineStatusList />
        </Card>
        <Card title={t('activity.latest')} className="activity-feed">
          <ActivityFeed />
        </Card>
      </div>
    </Page>
  );
}
