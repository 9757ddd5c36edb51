import { useLiveStatus } from '@/lib/live';

const LABELS = { live: 'Live', connecting: 'Connecting…', offline: 'Offline: reconnecting' } as const;

/** Says whether the screen is receiving live updates (Socket.IO). */
export function LiveIndicator() {
  const status = useLiveStatus();
  return (
    <span className={`live-indicator live-${status}`} data-status={status} title="Live updates">
      <span className="live-dot" aria-hidden="true" />
      {LABELS[status]}
    </span>
  );
}
