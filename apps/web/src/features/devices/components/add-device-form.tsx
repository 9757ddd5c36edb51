import { useId, useState, type FormEvent } from 'react';
import { errorDetail } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';
import { useFields } from '@/hooks/use-fields';
import { Button } from '@/components/ui/button';
import { SelectField, toOptions } from '@/components/ui/select-field';
import { StatusMessage } from '@/components/ui/status-message';
import { TextField } from '@/components/ui/text-field';
import { useAddUserDevice } from '../api/add-user-device';

interface AddDeviceFormProps {
  /** The signed-in user's id (the token's `sub`): devices are added to oneself. */
  userId: string;
  /** Devices the caller may choose from; undefined when the caller cannot list them and types the id. */
  choices: readonly string[] | undefined;
}

const EMPTY = { esp32Id: '', machine_location: '' };

/**
 * Account Management, tab Add Devices: POST /add/user/devices; failure text 'Error Adding Device', and a refused
 * value named beside its field. The device id is not browser-required: the form says 'Please select an ESP32 ID'.
 */
export function AddDeviceForm({ userId, choices }: AddDeviceFormProps) {
  const { t } = useTranslation();
  const mutation = useAddUserDevice();
  const fields = useFields(EMPTY);
  const [problem, setProblem] = useState<string | null>(null);
  const [refused, setRefused] = useState(false);
  const deviceErrorId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const esp32Id = fields.values.esp32Id.trim();
    if (!esp32Id) return setProblem(t('devices.add.selectProblem'));
    setProblem(null);
    setRefused(false);
    mutation.mutate(
      { userId, esp32Id, machine_location: fields.values.machine_location },
      {
        onSuccess: () => fields.reset(),
        onError: (error) =>
          setRefused(fields.showServerErrors(error, (name) => t(`devices.add.invalid.${name}`)).length > 0),
      },
    );
  };

  const { error: deviceError, ...device } = fields.bind('esp32Id');
  return (
    <form className="form" onSubmit={submit}>
      {choices === undefined ? (
        <TextField
          label={t('devices.add.deviceId')}
          placeholder={t('devices.add.example')}
          autoComplete="off"
          error={deviceError}
          {...device}
        />
      ) : (
        <div className={deviceError ? 'field-invalid' : undefined}>
          <SelectField
            label={t('devices.add.deviceId')}
            markRequired
            placeholder={choices.length ? t('devices.add.selectDevice') : t('devices.add.noDevices')}
            options={toOptions(choices)}
            aria-invalid={deviceError ? true : undefined}
            aria-describedby={deviceError ? deviceErrorId : undefined}
            {...device}
          />
          {deviceError && (
            <small id={deviceErrorId} className="field-error" role="alert">
              {deviceError}
            </small>
          )}
        </div>
      )}
      <TextField label={t('devices.add.machineLocation')} required {...fields.bind('machine_location')} />
      <Button type="submit" busy={mutation.isPending}>
        {t('devices.add.submit')}
      </Button>
      {problem && <StatusMessage tone="error">{problem}</StatusMessage>}
      {mutation.isError && (
        <StatusMessage tone="error" detail={refused ? t('settings.fieldsRefused') : errorDetail(mutation.error)}>
          {t('devices.add.failed')}
        </StatusMessage>
      )}
      {mutation.isSuccess && <StatusMessage tone="success">{mutation.data.message}</StatusMessage>}
    </form>
  );
}
