import { describe, expect, it } from '@jest/globals';
import { SequenceRecords } from './sequence-records.js';
import type { SequenceRepository } from './sequence.repository.js';

describe('SequenceRecords: the sales machines still hold', () => {
  it('writes the reports of many machines in one statement, the newest of each machine winning', async () => {
    const writes: [string, number][][] = [];
    const records = new SequenceRecords({
      setQueued: async (queued: Map<string, number>) => {
        writes.push([...queued]);
      },
    } as unknown as SequenceRepository);
    await Promise.all([records.setQueued('A', 37), records.setQueued('B', 0), records.setQueued('A', 36)]);
    expect(writes).toEqual([
      [
        ['A', 36],
        ['B', 0],
      ],
    ]);
    records.onApplicationShutdown();
  });

  it('tries a failed write again, and drain writes what waits', async () => {
    let failures = 1;
    const writes: [string, number][][] = [];
    const records = new SequenceRecords({
      setQueued: async (queued: Map<string, number>) => {
        if (failures-- > 0) throw new Error('database unavailable');
        writes.push([...queued]);
      },
    } as unknown as SequenceRepository);
    await expect(records.setQueued('A', 5)).rejects.toThrow('database unavailable');
    // Retried after the backoff without another report.
    for (let i = 0; i < 100 && writes.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(writes).toEqual([[['A', 5]]]);
    void records.setQueued('B', 1);
    await records.drain();
    expect(writes).toEqual([[['A', 5]], [['B', 1]]]);
    records.onApplicationShutdown();
  });
});
