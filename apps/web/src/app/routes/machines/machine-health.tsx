import { Link, useParams } from 'react-router';
import { paths } from '@/config/paths';
import { useTranslation } from '@/lib/i18n';
import { Card } from '@/components/ui/card';
import { LiveIndicator } from '@/components/ui/live-indicator';
import { Page } from '@/components/ui/page';
import { AlarmHistory } from '@/features/alarms/components/alarm-history';
import { AlarmSettingsForm } from '@/features/machine-health/components/alarm-settings-form';
import { HealthSummary } from '@/features/machine-health/components/health-summary';
import { TelemetryPanel } from '@/features/machine-health/components/telemetry-panel';

/**
 * Machine health (/machine/{machineId}/health, managers and admins): state and latest readings, readings over
 * time, the machine's alarms, and its alarm settings with the maintenance window.
 */
export function MachineHealthRoute() {
  const { t } = useTranslation();
  const machineId = useParams().machineId ?? '';
  return (
    <Page
      title={t('health.title')}
      lead={t('health.lead', { machineId })}
      actions={
        <>
          <LiveIndicator />
          <Link className="btn btn-secondary btn-sm" to={paths.manager.device.getHref(machineId)}>
            {t('health.settingsLink')}
          </Link>
        </>
      }
    >
      <div className="stack health-page" key={machineId}>
        <Card title={t('health.state')}>
          <HealthSummary espId={machineId} />
        </Card>
        <Card title={t('telemetry.title')}>
          <TelemetryPanel espId={machineId} />
        </Card>
        <Card
          title={t('alarms.history')}
          actions={
            <Link className="btn btn-ghost btn-sm" to={paths.alarms.getHref(machineId)}>
              {t('alarms.seeAll')}
            </Link>
          }
        >
          <AlarmHistory machineId={machineId} />
        </Card>
        <Card title={t('alarmSettings.title')}>
          <AlarmSettingsForm espId={machineId} canEdit />
        </Card>
      </div>
    </Page>
  );
}
