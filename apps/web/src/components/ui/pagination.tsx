import { useId } from 'react';
import { Button } from './button';

interface PaginationProps {
  page: number;
  /** Rows per page. */
  limit: number;
  total: number;
  onPage: (page: number) => void;
  /** When given, a rows-per-page selector with these options. */
  limitOptions?: readonly number[];
  onLimit?: (limit: number) => void;
  label: string;
}

/**
 * Previous / 'Page X of Y' / Next (docs/web-app.md, "Behaviour": Previous is disabled on page 1, Next on the last
 * page, the ceiling of total divided by rows per page), with the rows-per-page selector.
 */
export function Pagination({ page, limit, total, onPage, limitOptions, onLimit, label }: PaginationProps) {
  const id = useId();
  const pages = Math.max(1, Math.ceil(total / limit));
  return (
    <nav className="pagination" aria-label={label}>
      {limitOptions && onLimit && (
        <div className="field field-inline">
          <label htmlFor={id}>Rows per page</label>
          <select id={id} value={limit} onChange={(event) => onLimit(Number(event.target.value))}>
            {limitOptions.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
        </div>
      )}
      <div className="pagination-steps">
        <Button variant="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          Previous
        </Button>
        <span className="pagination-position" aria-live="polite">
          Page {page} of {pages}
        </span>
        <Button variant="secondary" disabled={page >= pages} onClick={() => onPage(page + 1)}>
          Next
        </Button>
      </div>
    </nav>
  );
}
