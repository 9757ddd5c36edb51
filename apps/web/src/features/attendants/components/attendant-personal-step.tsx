import type { FormEvent } from 'react';
import type { BindField } from '@/hooks/use-fields';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import type { AttendantPersonalFields } from './attendant-fields';

interface AttendantPersonalStepProps {
  bind: BindField<keyof AttendantPersonalFields>;
  /** The required-fields check; false when required fields are missing (the wizard shows the message). */
  validate: () => boolean;
  onNext: () => void;
}

/**
 * Create New Attendant, step 1. The browser does not block Next: the wizard checks the five required
 * fields and shows 'Please fill in all required fields.'; then the form's own rules (Current
 * Location is required, the email must look like one) are reported by the browser.
 */
export function AttendantPersonalStep({ bind, validate, onNext }: AttendantPersonalStepProps) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (validate() && event.currentTarget.reportValidity()) onNext();
  };
  return (
    <form className="form" onSubmit={submit} noValidate aria-label="Personal Info">
      <h2 className="form-title">Personal Info</h2>
      <p className="form-hint">All fields are required except Email.</p>
      <div className="form-grid">
        <TextField label="First Name" required autoComplete="off" {...bind('firstName')} />
        <TextField label="Last Name" required autoComplete="off" {...bind('lastName')} />
        <TextField label="Username" required autoComplete="off" {...bind('username')} />
        <TextField label="Company Name" required autoComplete="organization" {...bind('companyName')} />
        <TextField label="Email" type="email" placeholder="Optional" autoComplete="off" {...bind('email')} />
        <TextField label="Phone Number" type="tel" required placeholder="+255" {...bind('phoneNumber')} />
        <TextField label="Current Location" required {...bind('location')} />
      </div>
      <div className="actions actions-end">
        <Button type="submit">Next</Button>
      </div>
    </form>
  );
}
