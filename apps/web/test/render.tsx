import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, render } from '@testing-library/react';
import type { ReactElement } from 'react';

// The machine running the tests may be busy: wait for a screen to settle longer than the default second.
configure({ asyncUtilTimeout: 10_000 });

/**
 * Renders a component as the app does, under TanStack Query, with a client of its own so that no
 * cache is shared between tests, and no retries, so that a refused call shows at once.
 */
export function renderWithQueries(ui: ReactElement) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const view = render(<QueryClientProvider client={queryClient}>{ui}</QueryClientProvider>);
  return { queryClient, ...view };
}
