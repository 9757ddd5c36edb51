import { formatDateTime } from '@/lib/dates';
import { useTranslation } from '@/lib/i18n';
import { useConfigState } from '../api/get-config-state';
import { useLiveConfigState } from '../hooks/use-live-config-state';

/**
 * Whether the newest settings are applied on the machine or still pending (docs/device-protocol.md, "Configuration":
 * the machine acknowledges each config version it applies). Updated live by `config.applied`.
 */
export function ConfigStatus({ espId }: { espId: string }) {
  const { t } = useTranslation();
  const state = useConfigState(espId);
  useLiveConfigState(espId);

  if (!state.data) {
    return (
      <p className="config-status config-unknown" aria-live="polite">
        {state.isError ? t('settings.config.unavailable') : t('settings.config.checking')}
      </p>
    );
  }
  const { version, appliedVersion, appliedAt } = state.data;
  if (version === 0) {
    return (
      <p className="config-status config-unknown" aria-live="polite">
        {t('settings.config.none')}
      </p>
    );
  }
  const applied = appliedVersion >= version;
  const text = applied
    ? appliedAt
      ? t('settings.config.appliedSince', { version, time: formatDateTime(appliedAt) })
      : t('settings.config.appliedText', { version })
    : appliedVersion
      ? t('settings.config.waitingRuns', { version, applied: appliedVersion })
      : t('settings.config.waiting', { version });
  return (
    <div
      className={applied ? 'config-status config-applied' : 'config-status config-pending'}
      aria-live="polite"
      data-state={applied ? 'applied' : 'pending'}
    >
      <span className="config-badge">{applied ? t('settings.config.applied') : t('settings.config.pending')}</span>
      <span>{text}</span>
    </div>
  );
}
