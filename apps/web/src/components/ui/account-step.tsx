import type { FormEvent, ReactNode } from 'react';
import type { BindField } from '@/hooks/use-fields';
import { Button } from './button';
import { TextField } from './text-field';

interface AccountStepProps {
  /** The device picker, which differs per wizard; the other fields are the same in both. */
  device: ReactNode;
  bind: BindField<'machine_location' | 'password' | 'confirmPassword'>;
  busy: boolean;
  onBack: () => void;
  onRegister: () => void;
}

/**
 * Step 2 of both registration wizards (docs/web-app.md, "Screens" and "Behaviour"): the device, Machine Location,
 * Password and Confirm Password, then Back and Register.
 */
export function AccountStep({ device, bind, busy, onBack, onRegister }: AccountStepProps) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onRegister();
  };
  return (
    <form className="form" onSubmit={submit} aria-label="Account Info">
      <h2 className="form-title">Account Info</h2>
      <div className="form-grid">
        {device}
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
