import { useTranslation } from '@/lib/i18n';
import { Button } from '@/components/ui/button';

interface AlarmPagerProps {
  page: number;
  limit: number;
  total: number;
  onPage: (page: number) => void;
}

/** Previous, 'Page X of Y', Next, in the current language; hidden when everything fits on one page. */
export function AlarmPager({ page, limit, total, onPage }: AlarmPagerProps) {
  const { t } = useTranslation();
  const pages = Math.max(1, Math.ceil(total / limit));
  if (pages <= 1 && page <= 1) return null;
  return (
    <nav className="pagination" aria-label={t('alarms.pagination')}>
      <div className="pagination-steps">
        <Button variant="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          {t('common.previous')}
        </Button>
        <span className="pagination-position" aria-live="polite">
          {t('common.pageOf', { page, pages })}
        </span>
        <Button variant="secondary" disabled={page >= pages} onClick={() => onPage(page + 1)}>
          {t('common.next')}
        </Button>
      </div>
    </nav>
  );
}
