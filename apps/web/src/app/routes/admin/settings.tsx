import { Link } from 'react-router';
import { SESSION_CHECK_INTERVAL_MS, SESSION_EXPIRY_MS } from '@wv/contracts';
import { paths } from '@/config/paths';
import { useTranslation } from '@/lib/i18n';
import { LanguageSelect } from '@/lib/i18n/language-select';
import { useSession } from '@/lib/session';
import { Card } from '@/components/ui/card';
import { DetailList } from '@/components/ui/detail-list';
import { Page } from '@/components/ui/page';
import { UserInfoCard } from '@/features/profile/components/user-info-card';

/** What this browser knows about the signed-in session; nothing here pretends to change server settings. */
export function AdminSettingsRoute() {
  const { t } = useTranslation();
  const session = useSession();
  const { timeZone, locale } = Intl.DateTimeFormat().resolvedOptions();
  const role = session?.role;
  const roleText = role === 'admin' || role === 'manager' || role === 'attendant' ? t(`users.role.${role}`) : role;
  const expires = session?.expiresAt ? new Date(session.expiresAt).toLocaleString() : null;
  return (
    <Page title={t('settings.admin.title')} narrow actions={<LanguageSelect />}>
      <div className="stack">
        <UserInfoCard title={t('settings.admin.account')} />
        <Card title={t('settings.admin.session')}>
          <DetailList
            items={[
              { label: t('settings.admin.role'), value: roleText },
              { label: t('settings.admin.userId'), value: session?.userId && <code>{session.userId}</code> },
              { label: t('settings.admin.expires'), value: expires },
              {
                label: t('settings.admin.length'),
                value: t('settings.admin.minutes', { count: Math.round(SESSION_EXPIRY_MS / 60_000) }),
              },
              {
                label: t('settings.admin.checkedEvery'),
                value: t('settings.admin.seconds', { count: SESSION_CHECK_INTERVAL_MS / 1000 }),
              },
            ]}
          />
          <p className="muted">
            {t('settings.admin.signInAgain')} <Link to={paths.logout.getHref()}>{t('settings.admin.logOut')}</Link>
          </p>
        </Card>
        <Card title={t('settings.admin.browser')}>
          <DetailList
            items={[
              { label: t('settings.admin.timeZone'), value: timeZone },
              { label: t('settings.admin.locale'), value: locale },
            ]}
          />
          <p className="muted">{t('settings.admin.datesHint')}</p>
        </Card>
      </div>
    </Page>
  );
}
