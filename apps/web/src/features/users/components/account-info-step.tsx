import type { BindField } from '@/hooks/use-fields';
import { useTranslation } from '@/lib/i18n';
import { AccountStep } from '@/components/ui/account-step';
import { DeviceIdField } from '@/components/ui/device-id-field';
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

/** Create user, step 2: ESP32 ID, Machine Location, Password, Confirm Password. */
export function AccountInfoStep(props: AccountInfoStepProps) {
  const { bind, esp32Id, onEsp32IdChange, choices, busy, onBack, onRegister } = props;
  const { t } = useTranslation();
  const placeholder =
    choices === undefined
      ? t('createUser.loading')
      : choices.length
        ? t('createUser.selectDevice')
        : t('createUser.noDevices');
  return (
    <AccountStep
      device={
        <DeviceIdField
          label={t('createUser.selectDevice')}
          value={esp32Id}
          onChange={onEsp32IdChange}
          choices={choices ?? []}
          placeholder={placeholder}
        />
      }
      bind={bind}
      busy={busy}
      onBack={onBack}
      onRegister={onRegister}
    />
  );
}
