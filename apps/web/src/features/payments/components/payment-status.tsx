import type { PaymentStatus } from '@wv/contracts';
import { useTranslation } from '@/lib/i18n';

const TONE: Record<PaymentStatus, string> = {
  pending: 'badge-status-pending',
  completed: 'badge-status-approved',
  failed: 'badge-status-rejected',
  cancelled: 'badge-status-rejected',
  unmatched: 'badge-status-pending',
};

/** A payment's status as a coloured label (docs/web-app.md, "Payments and M-Pesa top-ups"). */
export function PaymentStatusBadge({ status }: { status: PaymentStatus }) {
  const { t } = useTranslation();
  return (
    <span className={`badge ${TONE[status]}`} data-status={status}>
      {t(`payments.status.${status}`)}
    </span>
  );
}
