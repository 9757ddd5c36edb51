import { useState } from 'react';
import { isSessionActive, useSession, type Session } from '@/lib/session';
import { useTranslation } from '@/lib/i18n';
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

/** Account Management (/a): its own login, then the User Information and Add Devices tabs. */
export function AccountManagementRoute() {
  const { t } = useTranslation();
  const session = useSession();
  if (!isSessionActive(session)) {
    return (
      <Page title={t('publicForms.accountTitle')} narrow lead={t('publicForms.accountLead')}>
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
  const { t } = useTranslation();
  const [tab, setTab] = useState<string>('info');
  const tabs = [
    { id: 'info', label: t('publicForms.userInformation') },
    { id: 'devices', label: t('publicForms.addDevices') },
  ];
  const signOut = useSignOut();
  // Only an admin may list unowned devices; a manager types the id of an unowned device instead.
  const isAdmin = session.role === 'admin';
  const choices = useUnassignedEsp32Ids({ enabled: isAdmin });

  return (
    <Page
      title={t('publicForms.accountTitle')}
      actions={
        // Here Logout removes the token and the role (docs/web-app.md, "Behaviour").
        <Button variant="secondary" onClick={signOut}>
          {t('publicForms.logout')}
        </Button>
      }
    >
      <Tabs label={t('publicForms.tabsLabel')} tabs={tabs} selected={tab} onSelect={setTab}>
        {tab === 'info' ? (
          <div className="stack">
            <UserInfoCard title={t('publicForms.userInformation')} />
            <Card title={t('publicForms.assignedDevices')}>
              <MyDevices />
            </Card>
          </div>
        ) : (
          <Card title={t('publicForms.addDevice')}>
            <AddDeviceForm userId={session.userId ?? ''} choices={isAdmin ? (choices ?? []) : undefined} />
          </Card>
        )}
      </Tabs>
    </Page>
  );
}
