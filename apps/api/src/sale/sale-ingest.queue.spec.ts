import { carriesOfflineSales } from '@wv/contracts';
import { describe, expect, it } from '@jest/globals';
import { packJobs } from './sale-ingest.queue.js';

const message = (chars: number, tag = '') => ({ payload: 'x'.repeat(chars), tag });

describe('packJobs', () => {
  it('cuts by message count and by payload size, in order', () => {
    const messages = Array.from({ length: 7 }, (_, i) => message(10, String(i)));
    expect(packJobs(messages, 3, 1000).map((j) => j.map((m) => m.tag))).toEqual([
      ['0', '1', '2'],
      ['3', '4', '5'],
      ['6'],
    ]);
    expect(packJobs(messages, 100, 25).map((j) => j.length)).toEqual([2, 2, 2, 1]);
  });

  it('gives a message larger than the size bound a job of its own, and no job to no messages', () => {
    expect(packJobs([message(5), message(50), message(5)], 100, 20).map((j) => j.length)).toEqual([1, 1, 1]);
    expect(packJobs([], 3, 10)).toEqual([]);
  });

  it('keeps a backlog of large arrays to a few hundred sales a job (docs/architecture.md, "Backfill and live sales")', () => {
    const sale = JSON.stringify({
      eventId: '9f1c2d3e-0000-4000-8000-000000000000',
      kind: 'coin',
      price: 200,
      volume: 5,
      waterType: 'fresh',
      seq: 1200,
      offline: true,
      time: '2026-11-25T08:15:00.000Z',
    });
    const array = `[${Array.from({ length: 50 }, () => sale).join(',')}]`;
    const jobs = packJobs(Array.from({ length: 250 }, () => ({ payload: array })));
    expect(carriesOfflineSales(array)).toBe(true);
    expect(jobs.length).toBeGreaterThan(10);
    expect(Math.max(...jobs.map((j) => j.length * 50))).toBeLessThanOrEqual(1000);
  });
});
