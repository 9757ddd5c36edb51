import type { BindField } from '@/hooks/use-fields';
import { AccountStep } from '@/components/ui/account-step';
import { SelectField, toOptions } from '@/components/ui/select-field';
import type { AttendantAccountFields } from './attendant-fields';

interface AttendantAccountStepProps {
  bind: BindField<keyof AttendantAccountFields>;
  deviceIds: readonly string[];
  busy: boolean;
  onBack: () => void;
  onRegister: () => void;
}

/** Create New Attendant, step 2: the device (not browser-required, so the form's own message shows). */
export function AttendantAccountStep({ bind, deviceIds, busy, onBack, onRegister }: AttendantAccountStepProps) {
  return (
    <AccountStep
      device={
        <SelectField
          label="Choose Device ID"
          markRequired
          placeholder="Select ID of Device"
          options={toOptions(deviceIds)}
          {...bind('esp32Id')}
        />
      }
      bind={bind}
      busy={busy}
      onBack={onBack}
      onRegister={onRegister}
    />
  );
}
