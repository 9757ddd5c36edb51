import { useId } from 'react';
import { useTranslation } from '@/lib/i18n';
import type { BindField } from '@/hooks/use-fields';
import { AccountStep } from '@/components/ui/account-step';
import { SelectField, toOptions } from '@/components/ui/select-field';
import type { AttendantAccountFields } from './attendant-fields';

/** A machine of the manager that already has an attendant. */
export interface TakenDevice {
  esp32Id: string;
  attendantName: string;
}

interface AttendantAccountStepProps {
  bind: BindField<keyof AttendantAccountFields>;
  /** Machines without an attendant: the only ones offered. */
  deviceIds: readonly string[];
  /** Machines with one, named under the choice so that a missing machine is explained. */
  taken: readonly TakenDevice[];
  busy: boolean;
  onBack: () => void;
  onRegister: () => void;
}

/**
 * Create New Attendant, step 2: the device (not browser-required, so the form's own message shows). A machine
 * runs with one attendant, so machines that have one are not offered; a line under the choice names them.
 */
export function AttendantAccountStep({ bind, deviceIds, taken, busy, onBack, onRegister }: AttendantAccountStepProps) {
  const { t } = useTranslation();
  const hintId = useId();
  const errorId = useId();
  const { error, ...device } = bind('esp32Id');
  const describedBy = [taken.length ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  const list = taken.map((d) => t('attendants.device.takenItem', { espId: d.esp32Id, name: d.attendantName }));
  return (
    <AccountStep
      device={
        <div className={error ? 'field-invalid' : undefined}>
          <SelectField
            label={t('attendants.device.label')}
            markRequired
            placeholder={
              deviceIds.length || !taken.length ? t('attendants.device.placeholder') : t('attendants.device.allTaken')
            }
            options={toOptions(deviceIds)}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
            {...device}
          />
          {taken.length > 0 && (
            <small id={hintId} className="field-hint">
              {t('attendants.device.taken', { count: taken.length, list: list.join(', ') })}
            </small>
          )}
          {error && (
            <small id={errorId} className="field-error" role="alert">
              {error}
            </small>
          )}
        </div>
      }
      bind={bind}
      busy={busy}
      onBack={onBack}
      onRegister={onRegister}
    />
  );
}
