import { useState, type FormEvent } from 'react';
import { errorDetail } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';
import { newUserId } from '@/lib/user-id';
import { useFields } from '@/hooks/use-fields';
import { Button } from '@/components/ui/button';
import { DeviceIdField } from '@/components/ui/device-id-field';
import { StatusMessage } from '@/components/ui/status-message';
import { TextField } from '@/components/ui/text-field';
import { useRegisterUser } from '../api/register-user';
import { useUnassignedEsp32Ids } from '../hooks/use-unassigned-esp32-ids';
import { accountStepProblem } from '@/lib/registration';
import { EMPTY_REGISTRATION, registrationTextKey, toRegisterUserRequest } from './registration-fields';

interface UserRegisterFormProps {
  submitLabel: string;
  /** Show the device fields (Current Location, ESP32 ID, Machine Location) the API requires. */
  withDevice: boolean;
  /** The caller may list unassigned devices (admin); otherwise the ESP32 ID is typed. */
  canListDevices: boolean;
}

/**
 * One-page registration, the older forms (/b, /ca). Both call POST /admin/register-user,
 * the only user-creating call an admin has; any other caller is refused by the server and the form
 * shows 'Error registering user' with the server's reason.
 */
export function UserRegisterForm({ submitLabel, withDevice, canListDevices }: UserRegisterFormProps) {
  const { t } = useTranslation();
  const say = (text: string) => {
    const key = registrationTextKey(text);
    return key ? t(key) : text;
  };
  const [userId, setUserId] = useState(newUserId);
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const fields = useFields(EMPTY_REGISTRATION);
  const listed = useUnassignedEsp32Ids({ enabled: withDevice && canListDevices });
  const mutation = useRegisterUser();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const { values } = fields;
    const found = withDevice
      ? accountStepProblem(values)
      : values.password !== values.confirmPassword
        ? 'Passwords do not match'
        : null;
    setProblem(found);
    setNotice(null);
    if (found) return;
    mutation.mutate(toRegisterUserRequest(userId, values), {
      onSuccess: ({ message }) => {
        setNotice(message);
        fields.reset();
        setUserId(newUserId());
      },
    });
  };

  const choices = canListDevices ? (listed ?? []) : undefined;
  return (
    <form className="form" onSubmit={submit}>
      <div className="form-grid">
        <TextField label={t('createUser.firstName')} required autoComplete="given-name" {...fields.bind('firstName')} />
        <TextField label={t('createUser.lastName')} required autoComplete="family-name" {...fields.bind('lastName')} />
        <TextField label={t('createUser.username')} required autoComplete="off" {...fields.bind('username')} />
        <TextField label={t('createUser.email')} type="email" required autoComplete="off" {...fields.bind('email')} />
        <TextField
          label={t('createUser.phoneNumber')}
          type="tel"
          required
          placeholder="+255"
          {...fields.bind('phoneNumber')}
        />
        {withDevice && (
          <>
            <TextField label={t('createUser.location')} required {...fields.bind('location')} />
            <DeviceIdField
              label={t('publicForms.esp32Id')}
              value={fields.values.esp32Id}
              onChange={(value) => fields.set('esp32Id', value)}
              choices={choices}
              placeholder={choices ? t('createUser.selectDevice') : t('devices.add.example')}
            />
            <TextField label={t('ui.account.machineLocation')} required {...fields.bind('machine_location')} />
          </>
        )}
        <TextField
          label={t('ui.account.password')}
          type="password"
          required
          autoComplete="new-password"
          {...fields.bind('password')}
        />
        <TextField
          label={t('ui.account.confirmPassword')}
          type="password"
          required
          autoComplete="new-password"
          {...fields.bind('confirmPassword')}
        />
      </div>
      <div className="actions actions-end">
        <Button type="submit" busy={mutation.isPending}>
          {submitLabel}
        </Button>
      </div>
      {problem && <StatusMessage tone="error">{say(problem)}</StatusMessage>}
      {mutation.isError && (
        <StatusMessage tone="error" detail={errorDetail(mutation.error)}>
          {t('createUser.failed')}
        </StatusMessage>
      )}
      {notice && <StatusMessage tone="success">{say(notice)}</StatusMessage>}
    </form>
  );
}
