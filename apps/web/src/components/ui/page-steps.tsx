import { Pagination } from './pagination';

interface PageStepsProps {
  page: number;
  limit: number;
  total: number;
  onPage: (page: number) => void;
  /** The navigation's accessible name, already translated. */
  label: string;
}

/** The pager without a rows-per-page selector, hidden when everything fits on one page (see Pagination). */
export function PageSteps(props: PageStepsProps) {
  return <Pagination {...props} hideWhenSinglePage />;
}
