import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { createDeliveryBatcher } from './delivery-batcher';

describe('createDeliveryBatcher', () => {
  beforeEach(() => {
    jest.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('delivers the first item at once, then at most one batch per interval, in order, each batch run once', () => {
    const batches: number[] = [];
    const seen: string[] = [];
    const enqueue = createDeliveryBatcher(500, (deliverAll) => {
      const before = seen.length;
      deliverAll();
      batches.push(seen.length - before);
    });

    enqueue(() => seen.push('a'));
    expect(seen).toEqual([]);
    jest.advanceTimersByTime(0);
    expect(seen).toEqual(['a']);

    jest.advanceTimersByTime(100);
    enqueue(() => seen.push('b'));
    enqueue(() => seen.push('c'));
    jest.advanceTimersByTime(399);
    expect(seen).toEqual(['a']);
    jest.advanceTimersByTime(1);
    expect(seen).toEqual(['a', 'b', 'c']);
    expect(batches).toEqual([1, 2]);

    // After a quiet spell longer than the interval, at once again.
    jest.advanceTimersByTime(2_000);
    enqueue(() => seen.push('d'));
    jest.advanceTimersByTime(0);
    expect(seen).toEqual(['a', 'b', 'c', 'd']);
    expect(batches).toEqual([1, 2, 1]);
  });
});
