import { describe, expect, it, jest } from '@jest/globals';
import { render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { lazyWithPreload } from './lazy-with-preload';

describe('lazyWithPreload', () => {
  it('downloads once, whether preloaded first, preloaded again or drawn', async () => {
    const load = jest.fn(() => Promise.resolve({ default: ({ name }: { name: string }) => <p>Hello {name}</p> }));
    const Greeting = lazyWithPreload(load);
    expect(load).not.toHaveBeenCalled();
    await Greeting.preload();
    await Greeting.preload();
    render(
      <Suspense fallback={<p>Loading</p>}>
        <Greeting name="Amina" />
      </Suspense>,
    );
    expect(await screen.findByText('Hello Amina')).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(1);
  });
});
