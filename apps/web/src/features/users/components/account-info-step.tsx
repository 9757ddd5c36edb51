import type { FormEvent } from 'react';
import type { BindField } from '@/hooks/use-fields';
import { Button } from '@/components/ui/button';
import { DeviceIdField } from '@/components/ui/device-id-field';
import { TextField } from '@/components/ui/text-field';
import type { AccountFields } from './registration-fields';

interface AccountInfoStepProps {
  bind: BindField<keyof AccountFields>;
  esp32Id: string;
  onEsp32IdChange: (value: string) => void;
  choices: readonly string[] | undefined;
  busy: boolean;
  onBack: () => void;
  onRegister: () => void;
}

/** Create user, step 2 (seed section 2): ESP32 ID, Machine Location, Password, Confirm Password. */
export function AccountInfoStep(props: AccountInfoStepProps) {
  const { bind, esp32Id, onEsp32IdChange, choices, busy, onBack, onRegister } = props;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onRegister();
  };
  const placeholder =
    choices === undefined ? 'Loading...' : choices.length ? 'Select ESP32 ID' : 'No unassigned devices';
  return (
    <form className="form" onSubmit={submit} aria-label="Account Info">
      <h2 className="form-title">Account Info</h2>
      <div className="form-grid">
        <DeviceIdField
          label="Select ESP32 ID"
          value={esp32Id}
          onChange={onEsp32IdChange}
          choices={choices ?? []}
          placeholder={placeholder}
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
