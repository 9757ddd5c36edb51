import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * `React.lazy` whose code can be asked for before the component is first drawn: `preload()` starts the download
 * (once; the component then uses the same promise). A large part of a page (the map, the charts) loads while the
 * page's data is being fetched instead of after it arrives.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the constraint of React's own lazy()
export function lazyWithPreload<T extends ComponentType<any>>(
  load: () => Promise<{ default: T }>,
): LazyExoticComponent<T> & { preload: () => Promise<unknown> } {
  let loading: Promise<{ default: T }> | undefined;
  const preload = () => (loading ??= load());
  return Object.assign(lazy(preload), { preload });
}
