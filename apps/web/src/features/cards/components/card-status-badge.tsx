import type { CardStatus } from '@wv/contracts';
import { useTranslation } from '@/lib/i18n';

/** A card's status as a coloured label: Active, or Blocked (machines refuse it). */
export function CardStatusBadge({ status }: { status: CardStatus }) {
  const { t } = useTranslation();
  return (
    <span className={`badge card-status card-status-${status}`} data-status={status}>
      {t(`cards.status.${status}`)}
    </span>
  );
}
