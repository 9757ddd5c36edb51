import { useTranslation } from '@/lib/i18n';
import { useManagerFloatRequests } from '../api/get-manager-float-requests';

/** The number of pending float requests beside the manager's navigation link, kept live. */
export function PendingFloatBadge() {
  const { t } = useTranslation();
  const pending = useManagerFloatRequests();
  const count = pending.data?.length ?? 0;
  if (!count) return null;
  return (
    <span className="nav-badge" aria-label={t('float.pending', { count })} data-count={count}>
      {count}
    </span>
  );
}
