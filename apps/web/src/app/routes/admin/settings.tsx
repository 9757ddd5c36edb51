import { Link } from 'react-router';
import { SESSION_CHECK_INTERVAL_MS, SESSION_EXPIRY_MS } from '@wv/contracts';
import { paths } from '@/config/paths';
import { useSession } from '@/lib/session';
import { Card } from '@/components/ui/card';
import { DetailList } from '@/components/ui/detail-list';
import { Page } from '@/components/ui/page';
import { UserInfoCard } from '@/features/profile/components/user-info-card';

const minutes = (ms: number) => `${Math.round(ms / 60_000)} minutes`;

/** What this browser knows about the signed-in session; nothing here pretends to change server settings. */
export function AdminSettingsRoute() {
  const session = useSession();
  const { timeZone, locale } = Intl.DateTimeFormat().resolvedOptions();
  const expires = session?.expiresAt ? new Date(session.expiresAt).toLocaleString() : null;
  return (
    <Page title="Settings" narrow>
      <div className="stack">
        <UserInfoCard title="Signed-in account" />
        <Card title="Session">
          <DetailList
            items={[
              { label: 'Role', value: session?.role },
              { label: 'User ID', value: session?.userId && <code>{session.userId}</code> },
              { label: 'Session expires', value: expires },
              { label: 'Session length', value: minutes(SESSION_EXPIRY_MS) },
              { label: 'Session checked every', value: `${SESSION_CHECK_INTERVAL_MS / 1000} seconds` },
            ]}
          />
          <p className="muted">
            Sign in again to start a new session. <Link to={paths.logout.getHref()}>Log out</Link>
          </p>
        </Card>
        <Card title="This browser">
          <DetailList
            items={[
              { label: 'Time zone', value: timeZone },
              { label: 'Language', value: locale },
            ]}
          />
          <p className="muted">Dates and times in this app are shown in this browser's time zone and format.</p>
        </Card>
      </div>
    </Page>
  );
}
