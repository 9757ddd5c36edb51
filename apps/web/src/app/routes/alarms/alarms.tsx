import { paths } from '@/config/paths';
import { useTranslation } from '@/lib/i18n';
import { LanguageSelect } from '@/lib/i18n/language-select';
import { isSessionActive, useSession } from '@/lib/session';
import { LiveIndicator } from '@/components/ui/live-indicator';
import { Page } from '@/components/ui/page';
import { AlarmsView } from '@/features/alarms/components/alarms-view';
import { NotificationPreferencesCard } from '@/features/notification-preferences/components/notification-preferences-card';

/**
 * Alarms (/alarms): every signed-in role sees the alarms of its machines. Managers and admins open a machine's
 * health from an alarm; an attendant, who has no account page, sets their notifications here.
 */
export function AlarmsRoute() {
  const { t } = useTranslation();
  const session = useSession();
  const role = isSessionActive(session) ? session.role : null;
  const canOpenMachines = role === 'manager' || role === 'admin';
  return (
    <Page
      title={t('alarms.title')}
      lead={t('alarms.lead')}
      actions={
        <>
          <LiveIndicator />
          {role !== 'attendant' && <LanguageSelect />}
        </>
      }
    >
      <div className="stack">
        <AlarmsView machineHref={canOpenMachines ? paths.manager.machineHealth.getHref : undefined} />
        {role === 'attendant' && <NotificationPreferencesCard />}
      </div>
    </Page>
  );
}
