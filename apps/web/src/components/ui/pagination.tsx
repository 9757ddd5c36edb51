import { useId, useState, type KeyboardEvent } from 'react';
import { useTranslation } from '@/lib/i18n';
import { Button } from './button';
import './pagination.css';

export interface PaginationProps {
  page: number;
  /** Rows per page. */
  limit: number;
  total: number;
  onPage: (page: number) => void;
  /** When given, a rows-per-page selector with these options. */
  limitOptions?: readonly number[];
  onLimit?: (limit: number) => void;
  /** The navigation's accessible name, already translated. */
  label: string;
  /** Render nothing when everything fits on one page (the lists without a rows-per-page selector). */
  hideWhenSinglePage?: boolean;
}

/**
 * The app's one pager (docs/web-app.md, "Behaviour"): First, Previous, 'Page X of Y', Next and Last, a page jump
 * (a number from 1 to the page count, then Go) and, when asked for, the rows-per-page selector. Previous and
 * First are disabled on page 1, Next and Last on the last page, the ceiling of total divided by rows per page.
 */
export function Pagination({
  page,
  limit,
  total,
  onPage,
  limitOptions,
  onLimit,
  label,
  hideWhenSinglePage = false,
}: PaginationProps) {
  const { t } = useTranslation();
  const id = useId();
  const [jump, setJump] = useState('');
  const [invalid, setInvalid] = useState(false);
  const pages = Math.max(1, Math.ceil(total / limit));
  if (hideWhenSinglePage && pages <= 1 && page <= 1) return null;

  const go = () => {
    const target = Number(jump);
    if (!/^\d+$/.test(jump.trim()) || target < 1 || target > pages) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    setJump('');
    if (target !== page) onPage(target);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    // The pager can sit inside a form: Enter jumps instead of submitting it.
    if (event.key === 'Enter') {
      event.preventDefault();
      go();
    }
  };

  return (
    <nav className="pagination" aria-label={label}>
      {limitOptions && onLimit && (
        <div className="field field-inline">
          <label htmlFor={`${id}-limit`}>{t('ui.pager.rowsPerPage')}</label>
          <select id={`${id}-limit`} value={limit} onChange={(event) => onLimit(Number(event.target.value))}>
            {limitOptions.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        </div>
      )}
      <div className="pagination-steps">
        <Button
          variant="secondary"
          className="pagination-edge"
          aria-label={t('ui.pager.firstPage')}
          disabled={page <= 1}
          onClick={() => onPage(1)}
        >
          <span aria-hidden="true">«</span> {t('ui.pager.first')}
        </Button>
        <Button variant="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          {t('common.previous')}
        </Button>
        <span className="pagination-position" aria-live="polite">
          {t('common.pageOf', { page, pages })}
        </span>
        <Button variant="secondary" disabled={page >= pages} onClick={() => onPage(page + 1)}>
          {t('common.next')}
        </Button>
        <Button
          variant="secondary"
          className="pagination-edge"
          aria-label={t('ui.pager.lastPage')}
          disabled={page >= pages}
          onClick={() => onPage(pages)}
        >
          {t('ui.pager.last')} <span aria-hidden="true">»</span>
        </Button>
      </div>
      {pages > 1 && (
        <div className="pagination-jump">
          <div className="field field-inline">
            <label htmlFor={`${id}-jump`}>{t('ui.pager.jump')}</label>
            <input
              id={`${id}-jump`}
              type="number"
              inputMode="numeric"
              min={1}
              max={pages}
              step={1}
              value={jump}
              aria-invalid={invalid || undefined}
              aria-describedby={invalid ? `${id}-jump-error` : undefined}
              onChange={(event) => {
                setJump(event.target.value);
                setInvalid(false);
              }}
              onKeyDown={onKeyDown}
            />
          </div>
          <Button variant="secondary" onClick={go}>
            {t('ui.pager.go')}
          </Button>
          {invalid && (
            <small id={`${id}-jump-error`} className="field-error" role="alert">
              {t('ui.pager.jumpInvalid', { pages })}
            </small>
          )}
        </div>
      )}
    </nav>
  );
}
