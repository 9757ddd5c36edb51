import { describe, expect, it } from '@jest/globals';
import { KeyedBatch } from './keyed-batch.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('KeyedBatch', () => {
  it('runs what was added within the linger as one batch, one entry per key, the newest value winning', async () => {
    const batches: [string, number][][] = [];
    const batch = new KeyedBatch<string, number, string>(
      async (b) => {
        batches.push([...b]);
        return new Map([...b].map(([k, v]) => [k, `${k}=${v}`]));
      },
      { lingerMs: 20, maxBatch: 100 },
    );
    const results = await Promise.all([batch.add('a', 1), batch.add('b', 2), batch.add('a', 3)]);
    expect(batches).toEqual([
      [
        ['a', 3],
        ['b', 2],
      ],
    ]);
    expect(results).toEqual(['a=3', 'b=2', 'a=3']);
  });

  it('runs at once when maxBatch keys wait, and one batch at a time', async () => {
    let running = 0;
    let overlapped = false;
    const sizes: number[] = [];
    const batch = new KeyedBatch<number, true>(
      async (b) => {
        overlapped ||= running > 0;
        running++;
        sizes.push(b.size);
        await sleep(10);
        running--;
      },
      { lingerMs: 60_000, maxBatch: 3 },
    );
    await Promise.all([1, 2, 3, 4, 5, 6, 7].map((k) => batch.add(k, true)).slice(0, 6));
    expect(sizes).toEqual([3, 3]);
    expect(overlapped).toBe(false);
    expect(batch.size).toBe(1);
    batch.close();
  });

  it('rejects the callers of a failed batch and retries it, unless a newer value replaced it', async () => {
    const seen: [string, string][][] = [];
    let fail = true;
    const batch = new KeyedBatch<string, string>(
      async (b) => {
        seen.push([...b]);
        if (fail) throw new Error('database down');
      },
      { lingerMs: 5, maxBatch: 100, retryMs: 20 },
    );
    await expect(Promise.all([batch.add('m1', 'online'), batch.add('m2', 'online')])).rejects.toThrow('database down');
    fail = false;
    const newer = batch.add('m2', 'offline');
    await newer;
    while (batch.size > 0) await sleep(5);
    expect(seen.at(-1)).toEqual(
      expect.arrayContaining([
        ['m1', 'online'],
        ['m2', 'offline'],
      ]),
    );
    expect(seen.flat().filter(([k, v]) => k === 'm2' && v === 'online')).toHaveLength(1);
  });

  it('drain runs what waits without waiting for the linger', async () => {
    const seen: string[] = [];
    const batch = new KeyedBatch<string, true>(
      async (b) => {
        seen.push(...b.keys());
      },
      { lingerMs: 60_000, maxBatch: 100 },
    );
    void batch.add('x', true);
    await batch.drain();
    expect(seen).toEqual(['x']);
  });
});
