import { useManagerFloatRequests } from '../api/get-manager-float-requests';

/** The number of pending float requests beside the manager's navigation link, kept live. */
export function PendingFloatBadge() {
  const pending = useManagerFloatRequests();
  const count = pending.data?.length ?? 0;
  if (!count) return null;
  return (
    <span className="nav-badge" aria-label={`${count} pending`} data-count={count}>
      {count}
    </span>
  );
}
