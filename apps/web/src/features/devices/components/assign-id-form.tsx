import { useState, type FormEvent } from 'react';
import type { AssignIdResponse } from '@wv/contracts';
import { ApiError, errorDetail } from '@/lib/api-client';
import { Button } from '@/components/ui/button';
import { SelectField } from '@/components/ui/select-field';
import { StatusMessage } from '@/components/ui/status-message';
import { TextField } from '@/components/ui/text-field';
import { useAssignId } from '../api/assign-id';
import { useMacAddresses } from '../api/get-mac-addresses';
import { DeviceKeyNotice } from './device-key-notice';

/** 'Error: ' + the server's error, or 'Something went wrong'. */
function assignFailureText(error: unknown): string {
  const reason = error instanceof ApiError ? (error.body?.error ?? error.body?.message) : undefined;
  return `Error: ${reason || 'Something went wrong'}`;
}

/** Assign ESP ID to MAC Address (admin, /add-esp32). */
export function AssignIdForm() {
  const macs = useMacAddresses();
  const mutation = useAssignId();
  const [macAddress, setMacAddress] = useState('');
  const [espId, setEspId] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [result, setResult] = useState<string | null>(null);
  const [issued, setIssued] = useState<(AssignIdResponse & { espId: string }) | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setResult(null);
    if (!macAddress) return setProblem('Please select a MAC address.');
    setProblem(null);
    const request = { macAddress, espId: espId.trim() };
    mutation.mutate(request, {
      onSuccess: (answer) => {
        setResult(answer.message);
        setIssued({ ...answer, espId: request.espId });
        setMacAddress('');
        setEspId('');
      },
      onError: (error) => setResult(assignFailureText(error)),
    });
  };

  const options = (macs.data ?? []).map(({ macAddress: mac }) => ({ value: mac, label: mac }));
  const placeholder = macs.isPending
    ? 'Loading...'
    : options.length
      ? 'Choose a MAC address'
      : 'No MAC addresses waiting';
  return (
    <>
      <form className="form" onSubmit={submit}>
        <SelectField
          label="Select MAC Address"
          markRequired
          value={macAddress}
          onChange={(event) => setMacAddress(event.target.value)}
          options={options}
          placeholder={placeholder}
        />
        {macs.isError && (
          <StatusMessage tone="error">Error fetching MAC addresses: {errorDetail(macs.error)}</StatusMessage>
        )}
        <TextField
          label="ESP ID"
          placeholder="Enter ESP ID"
          required
          autoComplete="off"
          value={espId}
          onChange={(event) => setEspId(event.target.value)}
        />
        <Button type="submit" busy={mutation.isPending}>
          Assign ID
        </Button>
        {problem && <StatusMessage tone="error">{problem}</StatusMessage>}
        {/* Red when the result contains the word Error, otherwise green. */}
        {result && <StatusMessage tone={result.includes('Error') ? 'error' : 'success'}>{result}</StatusMessage>}
      </form>
      {issued && (
        <DeviceKeyNotice espId={issued.espId} deviceKey={issued.deviceKey} onDismiss={() => setIssued(null)} />
      )}
    </>
  );
}
