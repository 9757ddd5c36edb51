import { useState, type FormEvent } from 'react';
import { errorDetail } from '@/lib/api-client';
import { Button } from '@/components/ui/button';
import { DeviceIdField } from '@/components/ui/device-id-field';
import { StatusMessage } from '@/components/ui/status-message';
import { TextField } from '@/components/ui/text-field';
import { useAddUserDevice } from '../api/add-user-device';

interface AddDeviceFormProps {
  /** The signed-in user's id (the token's `sub`): devices are added to oneself. */
  userId: string;
  /** Devices the caller may choose from; undefined when the caller cannot list them and types the id. */
  choices: readonly string[] | undefined;
}

/** Account Management, tab Add Devices: POST /add/user/devices; failure text 'Error Adding Device'. */
export function AddDeviceForm({ userId, choices }: AddDeviceFormProps) {
  const mutation = useAddUserDevice();
  const [esp32Id, setEsp32Id] = useState('');
  const [machineLocation, setMachineLocation] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!esp32Id.trim()) return setProblem('Please select an ESP32 ID');
    setProblem(null);
    mutation.mutate(
      { userId, esp32Id: esp32Id.trim(), machine_location: machineLocation },
      {
        onSuccess: () => {
          setEsp32Id('');
          setMachineLocation('');
        },
      },
    );
  };

  return (
    <form className="form" onSubmit={submit}>
      <DeviceIdField
        label="Device ID"
        value={esp32Id}
        onChange={setEsp32Id}
        choices={choices}
        placeholder={choices ? (choices.length ? 'Select Device ID' : 'No unassigned devices') : 'e.g. ESP-0001'}
      />
      <TextField
        label="Machine Location"
        required
        value={machineLocation}
        onChange={(event) => setMachineLocation(event.target.value)}
      />
      <Button type="submit" busy={mutation.isPending}>
        Add Device
      </Button>
      {problem && <StatusMessage tone="error">{problem}</StatusMessage>}
      {mutation.isError && (
        <StatusMessage tone="error" detail={errorDetail(mutation.error)}>
          Error Adding Device
        </StatusMessage>
      )}
      {mutation.isSuccess && <StatusMessage tone="success">{mutation.data.message}</StatusMessage>}
    </form>
  );
}
