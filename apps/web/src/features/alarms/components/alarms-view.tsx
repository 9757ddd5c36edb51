import { useSearchParams } from 'react-router';
import { useTranslation } from '@/lib/i18n';
import { SelectField } from '@/components/ui/select-field';
import { ALARM_KINDS, ALARM_STATUS_FILTERS } from '@wv/contracts';
import type { AlarmStatusFilter } from '../api/alarm-keys';
import { useMachineChoices } from '../api/get-machine-choices';
import { AlarmList } from './alarm-list';
import { useAlarmWords } from './alarm-labels';

export const ALARMS_PAGE_SIZE = 20;

const asStatus = (value: string | null): AlarmStatusFilter =>
  (ALARM_STATUS_FILTERS as readonly string[]).includes(value ?? '') ? (value as AlarmStatusFilter) : 'active';

/**
 * The Alarms screen (docs/web-app.md, "Alarms and machine health"): filters by status (active by default), kind and machine, kept
 * in the address so that a link can open a filtered list, and the alarms page by page.
 */
export function AlarmsView({ machineHref }: { machineHref?: (machineId: string) => string }) {
  const { t } = useTranslation();
  const words = useAlarmWords();
  const machines = useMachineChoices();
  const [params, setParams] = useSearchParams();
  const status = asStatus(params.get('status'));
  const kind = params.get('kind') ?? '';
  const machineId = params.get('machineId') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);

  const update = (name: string, value: string) =>
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        if (value) next.set(name, value);
        else next.delete(name);
        if (name !== 'page') next.delete('page');
        return next;
      },
      { replace: true },
    );

  const machineOptions = (machines.data ?? []).map((m) => ({ value: m.esp32Id, label: m.esp32Id }));
  if (machineId && !machineOptions.some((o) => o.value === machineId)) {
    machineOptions.unshift({ value: machineId, label: machineId });
  }

  return (
    <div className="stack">
      <form className="toolbar alarm-filters" aria-label={t('alarms.filters')} onSubmit={(e) => e.preventDefault()}>
        <SelectField
          label={t('alarms.status')}
          value={status}
          options={ALARM_STATUS_FILTERS.map((value) => ({ value, label: t(`alarms.statusFilter.${value}`) }))}
          onChange={(event) => update('status', event.target.value === 'active' ? '' : event.target.value)}
        />
        <SelectField
          label={t('alarms.kind')}
          value={kind}
          placeholder={t('alarms.allKinds')}
          options={ALARM_KINDS.map((value) => ({ value, label: words.kind(value) }))}
          onChange={(event) => update('kind', event.target.value)}
        />
        <SelectField
          label={t('alarms.machine')}
          value={machineId}
          placeholder={t('alarms.allMachines')}
          options={machineOptions}
          onChange={(event) => update('machineId', event.target.value)}
        />
      </form>
      <AlarmList
        query={{ status, kind: kind || undefined, machineId: machineId || undefined, page, limit: ALARMS_PAGE_SIZE }}
        onPage={(next) => update('page', next > 1 ? String(next) : '')}
        emptyText={status === 'active' && !kind && !machineId ? t('alarms.emptyActive') : t('alarms.empty')}
        machineHref={machineHref}
      />
    </div>
  );
}
