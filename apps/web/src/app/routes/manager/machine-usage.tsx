import { paths } from '@/config/paths';
import { useTranslation } from '@/lib/i18n';
import { LanguageSelect } from '@/lib/i18n/language-select';
import { Card } from '@/components/ui/card';
import { Page } from '@/components/ui/page';
import { AttendantName } from '@/features/attendants/components/attendant-name';
import { MyDevices } from '@/features/devices/components/my-devices';

/** Manage Devices (/manager/machine/usage, docs/web-app.md, "Screens"): each machine links to its settings. */
export function MachineUsageRoute() {
  const { t } = useTranslation();
  return (
    <Page title={t('devices.usage.title')} lead={t('devices.usage.lead')} actions={<LanguageSelect />}>
      <Card title={t('devices.usage.machines')}>
        <MyDevices
          linkTo={paths.manager.device.getHref}
          renderExtra={(esp32Id) => <AttendantName esp32Id={esp32Id} />}
        />
      </Card>
    </Page>
  );
}
