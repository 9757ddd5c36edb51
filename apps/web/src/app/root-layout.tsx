import { paths } from '@/config/paths';
import { isSessionActive, useSession } from '@/lib/session';
import { useSavedLanguage } from '@/lib/i18n/saved-language';
import { AppLayout } from '@/components/layout/app-layout';
import { ActiveAlarmBadge } from '@/features/alarms/components/active-alarm-badge';
import { AlarmLive } from '@/features/alarms/components/alarm-live';
import { AttendantFloatLive, ManagerFloatLive } from '@/features/float/components/float-live';
import { PendingFloatBadge } from '@/features/float/components/pending-float-badge';

const approvalHref = paths.manager.approveFloat.getHref();
const alarmsHref = paths.alarms.getHref();

/**
 * The page shell with what follows a signed-in user everywhere: the navigation shows the active alarms live
 * and a notice when one opens; a manager's navigation shows the pending float requests live and a notice
 * when one arrives; an attendant's float decisions update wherever they are. After sign-in the screens
 * take on the user's saved language.
 */
export function RootLayout() {
  useSavedLanguage();
  const session = useSession();
  const role = isSessionActive(session) ? session.role : null;
  const alarmBadge = { [alarmsHref]: <ActiveAlarmBadge /> };
  const alarmLive = <AlarmLive alarmsHref={alarmsHref} />;
  if (role === 'manager') {
    return (
      <AppLayout
        navBadges={{ [approvalHref]: <PendingFloatBadge />, ...alarmBadge }}
        notices={
          <>
            {alarmLive}
            <ManagerFloatLive approvalHref={approvalHref} />
          </>
        }
      />
    );
  }
  if (role === 'attendant') {
    return (
      <AppLayout
        navBadges={alarmBadge}
        notices={
          <>
            {alarmLive}
            <AttendantFloatLive />
          </>
        }
      />
    );
  }
  if (role === 'admin') return <AppLayout navBadges={alarmBadge} notices={alarmLive} />;
  return <AppLayout />;
}
