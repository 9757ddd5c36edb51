import { paths } from '@/config/paths';
import { isSessionActive, useSession } from '@/lib/session';
import { AppLayout } from '@/components/layout/app-layout';
import { AttendantFloatLive, ManagerFloatLive } from '@/features/float/components/float-live';
import { PendingFloatBadge } from '@/features/float/components/pending-float-badge';

const approvalHref = paths.manager.approveFloat.getHref();

/**
 * The page shell with what follows a signed-in user everywhere: a manager's navigation
 * shows the pending float requests live and a notice when one arrives; an attendant's float
 * decisions update wherever they are.
 */
export function RootLayout() {
  const session = useSession();
  const role = isSessionActive(session) ? session.role : null;
  if (role === 'manager') {
    return (
      <AppLayout
        navBadges={{ [approvalHref]: <PendingFloatBadge /> }}
        notices={<ManagerFloatLive approvalHref={approvalHref} />}
      />
    );
  }
  if (role === 'attendant') return <AppLayout notices={<AttendantFloatLive />} />;
  return <AppLayout />;
}
