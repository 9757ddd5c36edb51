import { afterEach, describe, expect, it } from '@jest/globals';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { setLanguage } from '@/lib/i18n';
import { PageSteps } from './page-steps';
import { Pagination } from './pagination';

afterEach(async () => {
  localStorage.clear();
  await setLanguage('en');
});

/** 1,716 rows at 10 a page: 172 pages, the pager of a busy machine. */
function Pager({ total = 1716, start = 1 }: { total?: number; start?: number }) {
  const [page, setPage] = useState(start);
  const [limit, setLimit] = useState(10);
  return (
    <Pagination
      label="Transaction pages"
      page={page}
      limit={limit}
      total={total}
      onPage={setPage}
      limitOptions={[10, 25]}
      onLimit={setLimit}
    />
  );
}

const position = () => screen.getByText(/^Page \d+ of \d+$/).textContent;
const button = (name: RegExp | string) => screen.getByRole<HTMLButtonElement>('button', { name });

describe('the pager', () => {
  it('goes to the last page and back to the first, each disabled where it leads nowhere', async () => {
    const user = userEvent.setup();
    render(<Pager />);
    expect(position()).toBe('Page 1 of 172');
    expect(button(/^First/).disabled).toBe(true);
    expect(button('Previous').disabled).toBe(true);

    await user.click(button(/^Last/));
    expect(position()).toBe('Page 172 of 172');
    expect(button(/^Last/).disabled).toBe(true);
    expect(button('Next').disabled).toBe(true);

    await user.click(button(/^First/));
    expect(position()).toBe('Page 1 of 172');
  });

  it('jumps to a page typed in, with Go or Enter', async () => {
    const user = userEvent.setup();
    render(<Pager />);
    const jump = screen.getByLabelText('Go to page');
    await user.type(jump, '57');
    await user.click(button('Go'));
    expect(position()).toBe('Page 57 of 172');
    expect((jump as HTMLInputElement).value).toBe('');

    await user.type(jump, '171{Enter}');
    expect(position()).toBe('Page 171 of 172');
  });

  it('refuses a page outside 1 to the page count, saying which pages exist', async () => {
    const user = userEvent.setup();
    render(<Pager start={5} />);
    const jump = screen.getByLabelText('Go to page');
    for (const wrong of ['0', '173', '2.5']) {
      await user.clear(jump);
      await user.type(jump, wrong);
      await user.click(button('Go'));
      expect(screen.getByRole('alert').textContent).toBe('Enter a page from 1 to 172.');
      expect(jump.getAttribute('aria-invalid')).toBe('true');
      expect(position()).toBe('Page 5 of 172');
    }
    await user.clear(jump);
    await user.click(button('Go'));
    expect(screen.getByRole('alert')).toBeTruthy();
    await user.type(jump, '172');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('offers no jump when everything is on one page; PageSteps then shows nothing at all', () => {
    const { unmount } = render(<Pager total={7} />);
    expect(position()).toBe('Page 1 of 1');
    expect(screen.queryByLabelText('Go to page')).toBeNull();
    unmount();
    const { container } = render(<PageSteps label="Alarm pages" page={1} limit={20} total={7} onPage={() => {}} />);
    expect(container.innerHTML).toBe('');
  });

  it('keeps the PageSteps callers’ pager, now with First, Last and the jump', async () => {
    const user = userEvent.setup();
    const pages: number[] = [];
    render(<PageSteps label="Alarm pages" page={2} limit={20} total={95} onPage={(page) => pages.push(page)} />);
    expect(screen.getByRole('navigation', { name: 'Alarm pages' })).toBeTruthy();
    await user.click(button(/^Last/));
    await user.click(button(/^First/));
    await user.click(button('Next'));
    await user.type(screen.getByLabelText('Go to page'), '4{Enter}');
    expect(pages).toEqual([5, 1, 3, 4]);
    expect(screen.queryByLabelText('Rows per page')).toBeNull();
  });

  it('speaks Kiswahili', async () => {
    await setLanguage('sw');
    render(<Pager start={3} />);
    expect(screen.getByText('Ukurasa 3 kati ya 172')).toBeTruthy();
    expect(screen.getByLabelText('Safu kwa ukurasa')).toBeTruthy();
    expect(button(/^Ukurasa wa kwanza/)).toBeTruthy();
    expect(button(/^Ukurasa wa mwisho/)).toBeTruthy();
    expect(button('Nenda')).toBeTruthy();
  });
});
