import { useTranslation } from '@/lib/i18n';
import { Button } from '@/components/ui/button';

interface PageStepsProps {
  page: number;
  limit: number;
  total: number;
  onPage: (page: number) => void;
  /** The navigation's accessible name, already translated. */
  label: string;
}

/**
 * Previous, 'Page X of Y', Next, in the current language; hidden when everything fits on one page. The seed's
 * `Pagination` keeps its English words where the seed names them; translated screens use this one.
 */
export function PageSteps({ page, limit, total, onPage, label }: PageStepsProps) {
  const { t } = useTranslation();
  const pages = Math.max(1, Math.ceil(total / limit));
  if (pages <= 1 && page <= 1) return null;
  return (
    <nav className="pagination" aria-label={label}>
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
