import type { FormEvent } from 'react';
import type { BindField } from '@/hooks/use-fields';
import { Button } from '@/components/ui/button';
import { SelectField, toOptions } from '@/components/ui/select-field';
import { TextField } from '@/components/ui/text-field';
import type { AttendantAccountFields } from './attendant-fields';

interface AttendantAccountStepProps {
  bind: BindField<keyof AttendantAccountFields>;
  deviceIds: readonly string[];
  busy: boolean;
  onBack: () => void;
  onRegister: () => void;
}

/** Create New Attendant, step 2: the device (not browser-required, so the seed's message shows). */
export function AttendantAccountStep({ bind, deviceIds, busy, onBack, onRegister }: AttendantAccountStepProps) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onRegister();
  };
  return (
    <form className="form" onSubmit={submit} aria-label="Account Info">
      <h2 className="form-title">Account Info</h2>
      <div className="form-grid">
        <SelectField
          label="Choose Device ID"
          markRequired
          placeholder="Select ID of Device"
          options={toOptions(deviceIds)}
          {...bind('esp32Id')}
        />
        <TextField label="Machine Location" required {...bind('machine_location')} />
        <TextField label="Password" type="password" required autoComplete="new-password" {...bind('password')} />
        <TextField
          label="Confirm Password"
          type="password"
          required
          autoComplete="new-password"
          {...bind('confirmPassword')}
        />
      </div>
      <div className="actions actions-between">
        <Button variant="secondary" onClick={onBack}>
          Back
        </Button>
        <Button type="submit" busy={busy}>
          Register
        </Button>
      </div>
    </form>
  );
}
