import { Link, useParams } from 'react-router';
import { Page } from '@/components/ui/page';
import { paths } from '@/config/paths';
import { SalesDashboard } from '@/features/sales-dashboard/components/sales-dashboard';
import { useSession } from '@/lib/session';
import { useTranslation } from '@/lib/i18n';
import { machineLinks } from './machine-links';

/**
 * A machine's own view (/machine/{machineId}, managers and admins; docs/web-app.md, "Fleet dashboard"): the
 * dashboard's date picker and the machine's summary card, with links to its health, settings and alarms.
 */
export function MachineViewRoute() {
  const { t } = useTranslation();
  const machineId = useParams().machineId ?? '';
  const session = useSession();
  const dashboard = session?.role === 'admin' ? paths.admin.dashboard.getHref() : paths.manager.dashboard.getHref();
  return (
    <Page
      title={machineId}
      lead={t('fleet.machine.lead', { espId: machineId })}
      actions={
        <>
          <Link className="btn btn-secondary btn-sm" to={paths.manager.machineHealth.getHref(machineId)}>
            {t('fleet.machine.health')}
          </Link>
          <Link className="btn btn-secondary btn-sm" to={paths.alarms.getHref(machineId)}>
            {t('fleet.machine.alarms')}
          </Link>
          <Link className="btn btn-secondary btn-sm" to={paths.manager.device.getHref(machineId)}>
            {t('fleet.machine.settings')}
          </Link>
        </>
      }
    >
      <p>
        <Link to={dashboard}>{t('fleet.machine.back')}</Link>
      </p>
      <SalesDashboard key={machineId} links={machineLinks} machineId={machineId} />
    </Page>
  );
}
