import { describe, expect, it } from '@jest/globals';
import { applySeqs, type SeqGap } from './seq-ranges.js';

const t0 = new Date('2026-11-25T06:00:00Z');
const t1 = new Date('2026-11-25T07:00:00Z');
const ranges = (gaps: SeqGap[]) => gaps.map((g) => [g.from, g.to]);

describe('tracking a machine’s sale counter', () => {
  it('moves the highest seq without a gap while sales come in order', () => {
    const out = applySeqs({ lastSeq: 0, gaps: [] }, [1, 2, 3], t0);
    expect(out).toEqual({ lastSeq: 3, gaps: [], reused: 0, restarted: false });
  });

  it('opens a gap for the numbers skipped, from 1 for a machine never heard before', () => {
    const out = applySeqs({ lastSeq: 0, gaps: [] }, [4, 9], t0);
    expect(out.lastSeq).toBe(9);
    expect(ranges(out.gaps)).toEqual([
      [1, 3],
      [5, 8],
    ]);
    expect(out.gaps.every((g) => g.firstSeenAt === t0)).toBe(true);
  });

  it('takes one batch’s seqs in ascending order, so an out-of-order batch opens no gap', () => {
    expect(applySeqs({ lastSeq: 2, gaps: [] }, [5, 3, 4], t0).gaps).toEqual([]);
  });

  it('shrinks a gap from either end and splits it in the middle, keeping when it was first seen', () => {
    let state = applySeqs({ lastSeq: 0, gaps: [] }, [10], t0);
    state = applySeqs(state, [1], t1);
    expect(ranges(state.gaps)).toEqual([[2, 9]]);
    state = applySeqs(state, [9], t1);
    expect(ranges(state.gaps)).toEqual([[2, 8]]);
    state = applySeqs(state, [5], t1);
    expect(ranges(state.gaps)).toEqual([
      [2, 4],
      [6, 8],
    ]);
    expect(state.gaps.map((g) => g.firstSeenAt)).toEqual([t0, t0]);
    state = applySeqs(state, [2, 3, 4, 6, 7, 8], t1);
    expect(state).toEqual({ lastSeq: 10, gaps: [], reused: 0, restarted: false });
  });

  it('counts a seq already used by another sale as reused and changes nothing else', () => {
    const out = applySeqs({ lastSeq: 7, gaps: [{ from: 3, to: 4, firstSeenAt: t0 }] }, [6, 7], t1);
    expect(out).toEqual({ lastSeq: 7, gaps: [{ from: 3, to: 4, firstSeenAt: t0 }], reused: 2, restarted: false });
  });

  it('takes a used seq 1 as a restarted counter: the highest seq starts again and the old gaps go', () => {
    const out = applySeqs({ lastSeq: 500, gaps: [{ from: 3, to: 4, firstSeenAt: t0 }] }, [1, 2, 3], t1);
    expect(out).toEqual({ lastSeq: 3, gaps: [], reused: 0, restarted: true });
  });

  it('fills a gap holding 1 rather than taking it as a restart', () => {
    const out = applySeqs({ lastSeq: 3, gaps: [{ from: 1, to: 2, firstSeenAt: t0 }] }, [1], t1);
    expect(out).toEqual({ lastSeq: 3, gaps: [{ from: 2, to: 2, firstSeenAt: t0 }], reused: 0, restarted: false });
  });
});
