import type { FormEvent, ReactNode } from 'react';
import type { BindField } from '@/hooks/use-fields';
import { useTranslation } from '@/lib/i18n';
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
  const { t } = useTranslation();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onRegister();
  };
  return (
    <form className="form" onSubmit={submit} aria-label={t('ui.account.title')}>
      <h2 className="form-title">{t('ui.account.title')}</h2>
      <div className="form-grid">
        {device}
        <TextField label={t('ui.account.machineLocation')} required {...bind('machine_location')} />
        <TextField
          label={t('ui.account.password')}
          type="password"
          required
          autoComplete="new-password"
          {...bind('password')}
        />
        <TextField
          label={t('ui.account.confirmPassword')}
          type="password"
          required
          autoComplete="new-password"
          {...bind('confirmPassword')}
        />
      </div>
      <div className="actions actions-between">
        <Button variant="secondary" onClick={onBack}>
          {t('ui.account.back')}
        </Button>
        <Button type="submit" busy={busy}>
          {t('ui.account.register')}
        </Button>
      </div>
    </form>
  );
}
