import { describe, expect, it } from '@jest/globals';
import { BrokerStatsRecorder, SALE_WAIT_BOUNDS_MS } from '../src/broker-stats.js';

describe('BrokerStatsRecorder', () => {
  it("counts each live sale's wait in the first bucket whose bound holds it, and longer waits in the last", () => {
    const stats = new BrokerStatsRecorder();
    for (const ms of [0, 1, 1.5, 10, 10.5, 99, 100, 20_000]) stats.saleWaited(ms);
    const { boundsMs, counts, sumMs } = stats.snapshot({ pending: 0, inFlight: 0 }).sales.liveWait;
    expect(boundsMs).toEqual(SALE_WAIT_BOUNDS_MS);
    expect(counts).toHaveLength(boundsMs.length + 1);
    const countAt = (boundMs: number | '+Inf') =>
      counts[boundMs === '+Inf' ? boundsMs.length : boundsMs.indexOf(boundMs)];
    expect(countAt(1)).toBe(2);
    expect(countAt(2.5)).toBe(1);
    expect(countAt(10)).toBe(1);
    expect(countAt(15)).toBe(1);
    expect(countAt(100)).toBe(2);
    expect(countAt('+Inf')).toBe(1);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(8);
    expect(sumMs).toBe(20_222);
  });
});
