import { useState } from 'react';
import { isSessionActive, useSession, type Session } from '@/lib/session';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Page } from '@/components/ui/page';
import { Tabs } from '@/components/ui/tabs';
import { LoginForm, plainLoginFailureText } from '@/features/auth/components/login-form';
import { useSignOut } from '@/features/auth/hooks/use-sign-out';
import { AddDeviceForm } from '@/features/devices/components/add-device-form';
import { MyDevices } from '@/features/devices/components/my-devices';
import { UserInfoCard } from '@/features/profile/components/user-info-card';
import { useUnassignedEsp32Ids } from '@/features/users/hooks/use-unassigned-esp32-ids';

const TABS = [
  { id: 'info', label: 'User Information' },
  { id: 'devices', label: 'Add Devices' },
] as const;

/** Account Management (/a): its own login, then the User Information and Add Devices tabs. */
export function AccountManagementRoute() {
  const session = useSession();
  if (!isSessionActive(session)) {
    return (
      <Page title="Account Management" narrow lead="Sign in to see your account and add devices.">
        <div className="card">
          {/* This login shows 'Login failed' without the server's text (docs/web-app.md, "Screens"). */}
          <LoginForm failureText={plainLoginFailureText} onSuccess={() => undefined} />
        </div>
      </Page>
    );
  }
  return <AccountPanel session={session} />;
}

function AccountPanel({ session }: { session: Session }) {
  const [tab, setTab] = useState<string>('info');
  const signOut = useSignOut();
  // Only an admin may list unowned devices; a manager types the id of an unowned device instead.
  const isAdmin = session.role === 'admin';
  const choices = useUnassignedEsp32Ids({ enabled: isAdmin });

  return (
    <Page
      title="Account Management"
      actions={
        // Here Logout removes the token and the role (docs/web-app.md, "Behaviour").
        <Button variant="secondary" onClick={signOut}>
          Logout
        </Button>
      }
    >
      <Tabs label="Account" tabs={TABS} selected={tab} onSelect={setTab}>
        {tab === 'info' ? (
          <div className="stack">
            <UserInfoCard title="User Information" />
            <Card title="Assigned Devices">
              <MyDevices />
            </Card>
          </div>
        ) : (
          <Card title="Add Device">
            <AddDeviceForm userId={session.userId ?? ''} choices={isAdmin ? (choices ?? []) : undefined} />
          </Card>
        )}
      </Tabs>
    </Page>
  );
}
