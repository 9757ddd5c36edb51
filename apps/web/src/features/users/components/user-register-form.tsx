import { useState, type FormEvent } from 'react';
import { errorDetail } from '@/lib/api-client';
import { newUserId } from '@/lib/user-id';
import { useFields } from '@/hooks/use-fields';
import { Button } from '@/components/ui/button';
import { DeviceIdField } from '@/components/ui/device-id-field';
import { StatusMessage } from '@/components/ui/status-message';
import { TextField } from '@/components/ui/text-field';
import { useRegisterUser } from '../api/register-user';
import { useUnassignedEsp32Ids } from '../hooks/use-unassigned-esp32-ids';
import { accountStepProblem } from '@/lib/registration';
import { EMPTY_REGISTRATION, toRegisterUserRequest } from './registration-fields';

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
        <TextField label="First Name" required autoComplete="given-name" {...fields.bind('firstName')} />
        <TextField label="Last Name" required autoComplete="family-name" {...fields.bind('lastName')} />
        <TextField label="Username" required autoComplete="off" {...fields.bind('username')} />
        <TextField label="Email" type="email" required autoComplete="off" {...fields.bind('email')} />
        <TextField label="Phone Number" type="tel" required placeholder="+255" {...fields.bind('phoneNumber')} />
        {withDevice && (
          <>
            <TextField label="Current Location" required {...fields.bind('location')} />
            <DeviceIdField
              label="ESP32 ID"
              value={fields.values.esp32Id}
              onChange={(value) => fields.set('esp32Id', value)}
              choices={choices}
              placeholder={choices ? 'Select ESP32 ID' : 'e.g. ESP-0001'}
            />
            <TextField label="Machine Location" required {...fields.bind('machine_location')} />
          </>
        )}
        <TextField label="Password" type="password" required autoComplete="new-password" {...fields.bind('password')} />
        <TextField
          label="Confirm Password"
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
      {problem && <StatusMessage tone="error">{problem}</StatusMessage>}
      {mutation.isError && (
        <StatusMessage tone="error" detail={errorDetail(mutation.error)}>
          Error registering user
        </StatusMessage>
      )}
      {notice && <StatusMessage tone="success">{notice}</StatusMessage>}
    </form>
  );
}
