import { useEffect, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { StatusMessage } from '@/components/ui/status-message';
import { TextField } from '@/components/ui/text-field';
import { useWifi } from '../api/get-wifi';
import { useUpdateWifi } from '../api/update-wifi';
import { failure, type Result } from './settings-result';

/**
 * Wi-Fi Credentials: SSID and Password, both required, 'Update Wi-Fi' and 'Clear'
 * (which sends both empty). The fields start from the machine's current credentials.
 */
export function WifiPanel({ espId }: { espId: string }) {
  const current = useWifi(espId);
  const mutation = useUpdateWifi();
  const [ssid, setSsid] = useState('');
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [touched, setTouched] = useState(false);
  const [result, setResult] = useState<Result | null>(null);

  const credentials = current.data && 'ssid' in current.data ? current.data : null;
  useEffect(() => {
    if (credentials && !touched) {
      setSsid(credentials.ssid);
      setPassword(credentials.password);
    }
  }, [credentials, touched]);

  const edit = (set: (value: string) => void) => (value: string) => {
    setTouched(true);
    set(value);
  };

  const update = (event: FormEvent) => {
    event.preventDefault();
    setResult(null);
    mutation.mutate(
      { espId, ssid, password },
      {
        onSuccess: () => setResult({ tone: 'success', text: 'Wi-Fi credentials updated successfully!' }),
        onError: (error) => setResult(failure(error, (detail) => `Error: ${detail}`)),
      },
    );
  };

  const clear = () => {
    setResult(null);
    mutation.mutate(
      { espId, ssid: '', password: '' },
      {
        onSuccess: () => {
          setTouched(true);
          setSsid('');
          setPassword('');
          setResult({ tone: 'success', text: 'Wi-Fi credentials cleared successfully!' });
        },
        onError: (error) => setResult(failure(error, (detail) => `Error clearing Wi-Fi credentials: ${detail}`)),
      },
    );
  };

  const fetchProblem = current.isError
    ? failure(current.error, (detail) => `Error fetching Wi-Fi credentials: ${detail}`).text
    : null;

  return (
    <Card title="Wi-Fi Credentials" className="settings-panel">
      <div className="previous" aria-label="Current Wi-Fi">
        {credentials ? (
          <p>
            <span className="muted">Current network:</span> <strong>{credentials.ssid || 'None (cleared)'}</strong>
          </p>
        ) : current.data && 'message' in current.data ? (
          <p className="muted">{current.data.message}</p>
        ) : current.isPending ? (
          <p className="muted">Loading...</p>
        ) : null}
        {fetchProblem && <StatusMessage tone="error">{fetchProblem}</StatusMessage>}
      </div>
      <form className="form" onSubmit={update} aria-label="Wi-Fi Credentials">
        <TextField
          label="SSID"
          required
          autoComplete="off"
          value={ssid}
          onChange={(event) => edit(setSsid)(event.target.value)}
        />
        <div className="password-field">
          <TextField
            label="Password"
            type={showPassword ? 'text' : 'password'}
            required
            autoComplete="off"
            value={password}
            onChange={(event) => edit(setPassword)(event.target.value)}
          />
          <button type="button" className="link-button" onClick={() => setShowPassword((value) => !value)}>
            {showPassword ? 'Hide password' : 'Show password'}
          </button>
        </div>
        <div className="actions">
          <Button type="submit" busy={mutation.isPending && mutation.variables?.ssid !== ''}>
            Update Wi-Fi
          </Button>
          <Button variant="secondary" busy={mutation.isPending && mutation.variables?.ssid === ''} onClick={clear}>
            Clear
          </Button>
        </div>
        {result && <StatusMessage tone={result.tone}>{result.text}</StatusMessage>}
      </form>
    </Card>
  );
}
