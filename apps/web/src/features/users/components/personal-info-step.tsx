import type { FormEvent } from 'react';
import type { BindField } from '@/hooks/use-fields';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import type { PersonalFields } from './registration-fields';

/** Create user, step 1: six fields, all required, then Next. */
export function PersonalInfoStep({ bind, onNext }: { bind: BindField<keyof PersonalFields>; onNext: () => void }) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onNext();
  };
  return (
    <form className="form" onSubmit={submit} aria-label="Personal Info">
      <h2 className="form-title">Personal Info</h2>
      <div className="form-grid">
        <TextField label="First Name" required autoComplete="given-name" {...bind('firstName')} />
        <TextField label="Last Name" required autoComplete="family-name" {...bind('lastName')} />
        <TextField label="Username" required autoComplete="off" {...bind('username')} />
        <TextField label="Email" type="email" required autoComplete="off" {...bind('email')} />
        <TextField label="Phone Number" type="tel" required placeholder="+255" {...bind('phoneNumber')} />
        <TextField label="Current Location" required {...bind('location')} />
      </div>
      <div className="actions actions-end">
        <Button type="submit">Next</Button>
      </div>
    </form>
  );
}
