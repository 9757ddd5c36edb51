import { Link, useParams } from 'react-router';
import { paths } from '@/config/paths';
import { useTranslation } from '@/lib/i18n';
import { LanguageSelect } from '@/lib/i18n/language-select';
import { Page } from '@/components/ui/page';
import { DeviceSettings } from '@/features/machine-settings/components/device-settings';
import { CoordinatesPanel } from '@/features/fleet/components/coordinates-panel';

/** Device Settings (/device/{espId}): Wi-Fi, tariffs and the location on the map of one machine. */
export function DeviceSettingsRoute() {
  const { t } = useTranslation();
  const espId = useParams().espId ?? '';
  return (
    <Page
      title={t('settings.page.title')}
      lead={t('settings.page.lead', { espId })}
      actions={
        <>
          <Link className="btn btn-secondary btn-sm" to={paths.manager.machineHealth.getHref(espId)}>
            {t('settings.page.health')}
          </Link>
          <LanguageSelect />
        </>
      }
    >
      <div className="stack">
        <DeviceSettings key={espId} espId={espId} />
        <CoordinatesPanel key={`coordinates-${espId}`} espId={espId} />
      </div>
    </Page>
  );
}
