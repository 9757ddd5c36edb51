import { describe, expect, it } from '@jest/globals';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { businessDate } from '@/lib/dates';
import type { RecordedRequest } from '../../../../test/api-server';
import { useFakeApi } from '../../../../test/fake-api';
import { renderWithQueries } from '../../../../test/render';
import { TransactionsView } from './transactions-view';

const server = useFakeApi();

/** The machine's coin sales as the server would page them: 25 in all, sale n costing n × 100. */
function coinPage(request: RecordedRequest) {
  const page = Number(request.query.page);
  const limit = Number(request.query.limit);
  const all = Array.from({ length: 25 }, (_, i) => ({
    id: `sale-${i + 1}`,
    price: (i + 1) * 100,
    volume: 1.5,
    waterType: 'pure',
    time: '2026-04-01T09:30:00Z',
  }));
  if (request.query.order === 'desc') all.reverse();
  return { body: { data: all.slice((page - 1) * limit, page * limit), total: all.length } };
}

async function renderCoinSales() {
  localStorage.setItem('token', 'manager-token');
  server.answer(coinPage);
  renderWithQueries(<TransactionsView kind="coin" machineId="ESP1" />);
  await screen.findByRole('table');
  return userEvent.setup({ delay: null });
}

const lastQuery = () => server.requests.at(-1)!.query;
/** The SN and Price cells of each row of the table. */
const shownRows = () =>
  within(screen.getByRole('table'))
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    );
const position = () => screen.getByText(/^Page \d+ of \d+$/).textContent;
const button = (name: string) => screen.getByRole<HTMLButtonElement>('button', { name });

describe('the coin-based transactions of a machine', () => {
  it('asks for today’s first ten sales and numbers them from 1', async () => {
    await renderCoinSales();

    const today = businessDate();
    expect(server.requests[0].path).toBe('/machines/ESP1/coin-transactions');
    expect(lastQuery()).toEqual({ page: '1', limit: '10', startDate: today, endDate: today });
    expect(shownRows()).toHaveLength(10);
    expect(shownRows()[0][0]).toBe('1');
    expect(position()).toBe('Page 1 of 3');
    expect(button('Previous').disabled).toBe(true);
    expect(screen.getByText('Showing today; the list refreshes every minute.')).toBeTruthy();
  });

  it('pages forward with Next, carrying the numbering on, up to the last page', async () => {
    const user = await renderCoinSales();

    await user.click(button('Next'));
    await waitFor(() => expect(position()).toBe('Page 2 of 3'));
    await waitFor(() => expect(shownRows()[0][0]).toBe('11'));
    expect(lastQuery()).toMatchObject({ page: '2', limit: '10' });

    await user.click(button('Next'));
    await waitFor(() => expect(shownRows()).toHaveLength(5));
    expect(shownRows().map((row) => row[0])).toEqual(['21', '22', '23', '24', '25']);
    expect(button('Next').disabled).toBe(true);

    await user.click(button('Previous'));
    await waitFor(() => expect(position()).toBe('Page 2 of 3'));
  });

  it('keeps the numbers of the rows on screen while the next page loads', async () => {
    const user = await renderCoinSales();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    server.answer(async (request) => {
      if (request.query.page === '2') await held;
      return coinPage(request);
    });

    await user.click(button('Next'));
    await waitFor(() => expect(position()).toBe('Page 2 of 3'));
    await waitFor(() => expect(lastQuery()).toMatchObject({ page: '2' }));
    // Page 1's rows, dimmed while page 2 loads, are still numbered 1 to 10.
    expect(screen.getByRole('table').closest('[aria-busy]')).toBeTruthy();
    expect(shownRows().map((row) => row[0])).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);

    release();
    await waitFor(() => expect(shownRows()[0][0]).toBe('11'));
    expect(screen.getByRole('table').closest('[aria-busy]')).toBeNull();
  });

  it('sorts on the server by a header: ascending first, then descending, back on page 1', async () => {
    const user = await renderCoinSales();
    await user.click(button('Next'));
    await waitFor(() => expect(position()).toBe('Page 2 of 3'));

    await user.click(button('Price'));
    await waitFor(() => expect(lastQuery()).toMatchObject({ page: '1', sort: 'price', order: 'asc' }));
    expect(position()).toBe('Page 1 of 3');
    expect(screen.getByRole('columnheader', { name: 'Price' }).getAttribute('aria-sort')).toBe('ascending');

    await user.click(button('Price'));
    await waitFor(() => expect(lastQuery()).toMatchObject({ page: '1', sort: 'price', order: 'desc' }));
    expect(screen.getByRole('columnheader', { name: 'Price' }).getAttribute('aria-sort')).toBe('descending');
    // The server's order shows as it came: the dearest sale first (whole shillings), still numbered 1.
    await waitFor(() => expect(shownRows()[0][1]?.replace(/\D/g, '')).toBe('2500'));
    expect(shownRows()[0][0]).toBe('1');
  });

  it('does not sort by SN, which is only the row number', async () => {
    await renderCoinSales();
    expect(screen.queryByRole('button', { name: 'SN' })).toBeNull();
    expect(screen.getByRole('columnheader', { name: 'SN' })).toBeTruthy();
  });

  it('goes back to page 1 when the rows per page change', async () => {
    const user = await renderCoinSales();
    await user.click(button('Next'));
    await waitFor(() => expect(position()).toBe('Page 2 of 3'));

    await user.selectOptions(screen.getByLabelText('Rows per page'), '25');

    // The position follows the choice at once, from the total already known; the request leaves after that render.
    await waitFor(() => expect(position()).toBe('Page 1 of 1'));
    await waitFor(() => expect(lastQuery()).toMatchObject({ page: '1', limit: '25' }));
    await waitFor(() => expect(shownRows()).toHaveLength(25));
  });

  it('refuses a start date after the end date without asking the server', async () => {
    const user = await renderCoinSales();
    const asked = server.requests.length;

    await user.clear(screen.getByLabelText('Start Date'));
    await user.type(screen.getByLabelText('Start Date'), '2026-04-10');
    await user.clear(screen.getByLabelText('End Date'));
    await user.type(screen.getByLabelText('End Date'), '2026-04-01');
    await user.click(button('Filter'));

    expect(screen.getByRole('alert').textContent).toBe('The start date must not be after the end date.');
    expect(server.requests).toHaveLength(asked);
  });

  it('asks for the chosen dates from page 1 and stops refreshing by itself', async () => {
    const user = await renderCoinSales();
    await user.click(button('Next'));
    await waitFor(() => expect(position()).toBe('Page 2 of 3'));

    await user.clear(screen.getByLabelText('Start Date'));
    await user.type(screen.getByLabelText('Start Date'), '2026-03-01');
    await user.clear(screen.getByLabelText('End Date'));
    await user.type(screen.getByLabelText('End Date'), '2026-03-31');
    await user.click(button('Filter'));

    await waitFor(() =>
      expect(lastQuery()).toEqual({ page: '1', limit: '10', startDate: '2026-03-01', endDate: '2026-03-31' }),
    );
    expect(screen.queryByText('Showing today; the list refreshes every minute.')).toBeNull();
  });
});
