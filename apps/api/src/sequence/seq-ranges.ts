/** A range of a machine's `seq` never received, inclusive at both ends. */
export interface SeqGap {
  from: number;
  to: number;
  /** When the server first knew these numbers were missing (kept when a gap is split). */
  firstSeenAt: Date;
}

export interface SeqState {
  lastSeq: number;
  /** Sorted by `from`, never overlapping, all below `lastSeq`. */
  gaps: SeqGap[];
}

export interface SeqOutcome extends SeqState {
  /** Fresh sales whose seq the machine had already used for another sale. */
  reused: number;
  /** The counter started again at 1: the old gaps can never be filled and were dropped. */
  restarted: boolean;
}

/** Index of the gap holding `seq`, or -1 (binary search over the sorted, disjoint gaps). */
function gapHolding(gaps: SeqGap[], seq: number): number {
  let lo = 0;
  let hi = gaps.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const gap = gaps[mid]!;
    if (seq < gap.from) hi = mid - 1;
    else if (seq > gap.to) lo = mid + 1;
    else return mid;
  }
  return -1;
}

/**
 * Takes the seqs of a machine's freshly stored sales (docs/device-protocol.md, "Sequence numbers"):
 * a seq past `lastSeq` moves it and opens a gap for the numbers skipped; a seq inside a gap fills it
 * (shrinking or splitting the gap, which keeps its first-seen time); any other seq was already used by
 * another sale and is counted as reused, except 1, which means the counter started again: `lastSeq`
 * becomes 1 and the old gaps are dropped. The seqs are taken in ascending order, so sales that arrive
 * out of order within one batch open no gap.
 */
export function applySeqs(state: SeqState, seqs: number[], now: Date): SeqOutcome {
  let lastSeq = state.lastSeq;
  let gaps = state.gaps.map((g) => ({ ...g }));
  let reused = 0;
  let restarted = false;
  for (const seq of [...seqs].sort((a, b) => a - b)) {
    if (seq > lastSeq) {
      if (seq > lastSeq + 1) gaps.push({ from: lastSeq + 1, to: seq - 1, firstSeenAt: now });
      lastSeq = seq;
      continue;
    }
    const at = gapHolding(gaps, seq);
    if (at >= 0) {
      const gap = gaps[at]!;
      const pieces: SeqGap[] = [];
      if (gap.from <= seq - 1) pieces.push({ from: gap.from, to: seq - 1, firstSeenAt: gap.firstSeenAt });
      if (seq + 1 <= gap.to) pieces.push({ from: seq + 1, to: gap.to, firstSeenAt: gap.firstSeenAt });
      gaps.splice(at, 1, ...pieces);
    } else if (seq === 1) {
      restarted = true;
      lastSeq = 1;
      gaps = [];
    } else {
      reused++;
    }
  }
  return { lastSeq, gaps, reused, restarted };
}
