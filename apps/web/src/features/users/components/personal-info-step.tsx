import type { FormEvent } from 'react';
import type { BindField } from '@/hooks/use-fields';
import { useTranslation } from '@/lib/i18n';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import type { PersonalFields } from './registration-fields';

/** Create user, step 1: six fields, all required, then Next. */
export function PersonalInfoStep({ bind, onNext }: { bind: BindField<keyof PersonalFields>; onNext: () => void }) {
  const { t } = useTranslation();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onNext();
  };
  return (
    <form className="form" onSubmit={submit} aria-label={t('createUser.steps.personal')}>
      <h2 className="form-title">{t('createUser.steps.personal')}</h2>
      <div className="form-grid">
        <TextField label={t('createUser.firstName')} required autoComplete="given-name" {...bind('firstName')} />
        <TextField label={t('createUser.lastName')} required autoComplete="family-name" {...bind('lastName')} />
        <TextField label={t('createUser.username')} required autoComplete="off" {...bind('username')} />
        <TextField label={t('createUser.email')} type="email" required autoComplete="off" {...bind('email')} />
        <TextField
          label={t('createUser.phoneNumber')}
          type="tel"
          required
          placeholder="+255"
          {...bind('phoneNumber')}
        />
        <TextField label={t('createUser.location')} required {...bind('location')} />
      </div>
      <div className="actions actions-end">
        <Button type="submit">{t('createUser.next')}</Button>
      </div>
    </form>
  );
}
