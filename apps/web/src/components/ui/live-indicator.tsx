import { useTranslation } from '@/lib/i18n';
import { useLiveStatus } from '@/lib/live';

/** Says whether the screen is receiving live updates (Socket.IO). */
export function LiveIndicator() {
  const { t } = useTranslation();
  const status = useLiveStatus();
  return (
    <span className={`live-indicator live-${status}`} data-status={status} title={t('ui.live.title')}>
      <span className="live-dot" aria-hidden="true" />
      {t(`ui.live.${status}`)}
    </span>
  );
}
