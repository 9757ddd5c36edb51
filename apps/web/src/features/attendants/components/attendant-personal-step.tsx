import type { FormEvent } from 'react';
import { useTranslation } from '@/lib/i18n';
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
  const { t } = useTranslation();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (validate() && event.currentTarget.reportValidity()) onNext();
  };
  return (
    <form className="form" onSubmit={submit} noValidate aria-label={t('attendants.steps.personal')}>
      <h2 className="form-title">{t('attendants.steps.personal')}</h2>
      <p className="form-hint">{t('attendants.personal.hint')}</p>
      <div className="form-grid">
        <TextField label={t('attendants.personal.firstName')} required autoComplete="off" {...bind('firstName')} />
        <TextField label={t('attendants.personal.lastName')} required autoComplete="off" {...bind('lastName')} />
        <TextField label={t('attendants.personal.username')} required autoComplete="off" {...bind('username')} />
        <TextField
          label={t('attendants.personal.companyName')}
          required
          autoComplete="organization"
          {...bind('companyName')}
        />
        <TextField
          label={t('attendants.personal.email')}
          type="email"
          placeholder={t('attendants.personal.optional')}
          autoComplete="off"
          {...bind('email')}
        />
        <TextField
          label={t('attendants.personal.phoneNumber')}
          type="tel"
          required
          placeholder="+255"
          {...bind('phoneNumber')}
        />
        <TextField label={t('attendants.personal.location')} required {...bind('location')} />
      </div>
      <div className="actions actions-end">
        <Button type="submit">{t('attendants.personal.next')}</Button>
      </div>
    </form>
  );
}
