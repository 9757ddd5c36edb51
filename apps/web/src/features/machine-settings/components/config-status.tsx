import { formatDateTime } from '@/lib/dates';
import { useConfigState } from '../api/get-config-state';
import { useLiveConfigState } from '../hooks/use-live-config-state';

/**
 * Whether the newest settings are applied on the machine or still pending (docs/device-protocol.md, "Configuration":
 * the machine acknowledges each config version it applies). Updated live by `config.applied`.
 */
export function ConfigStatus({ espId }: { espId: string }) {
  const state = useConfigState(espId);
  useLiveConfigState(espId);

  if (!state.data) {
    return (
      <p className="config-status config-unknown" aria-live="polite">
        {state.isError ? 'The machine’s settings state is not available.' : 'Checking the machine…'}
      </p>
    );
  }
  const { version, appliedVersion, appliedAt } = state.data;
  if (version === 0) {
    return (
      <p className="config-status config-unknown" aria-live="polite">
        No settings have been sent to this machine yet.
      </p>
    );
  }
  const applied = appliedVersion >= version;
  return (
    <div
      className={applied ? 'config-status config-applied' : 'config-status config-pending'}
      aria-live="polite"
      data-state={applied ? 'applied' : 'pending'}
    >
      <span className="config-badge">{applied ? 'Applied' : 'Pending'}</span>
      <span>
        {applied
          ? `The newest settings (version ${version}) are applied on the machine${appliedAt ? ` since ${formatDateTime(appliedAt)}` : ''}.`
          : `Waiting for the machine to apply version ${version}${appliedVersion ? ` (it runs version ${appliedVersion})` : ''}.`}
      </span>
    </div>
  );
}
