import { Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { applySeqs, type SeqGap } from './seq-ranges.js';
import { SequenceRepository, type SeqStateChange } from './sequence.repository.js';

const gapKey = (g: SeqGap) => `${g.from}-${g.to}`;

/**
 * What the sale ingest uses of this domain: the seqs of freshly stored sales update each machine's
 * highest seq and gaps in the ingest's own transaction, so that the gaps always describe exactly the
 * sales committed (a duplicate delivery is not fresh and changes nothing).
 */
@Injectable()
export class SequenceTracker {
  private readonly logger = new Logger(SequenceTracker.name);

  constructor(private readonly sequences: SequenceRepository) {}

  async track(m: EntityManager, sales: { espId: string; seq: number | null }[], now = new Date()): Promise<void> {
    const seqs = new Map<string, number[]>();
    for (const s of sales) {
      if (s.seq === null) continue;
      (seqs.get(s.espId) ?? seqs.set(s.espId, []).get(s.espId)!).push(s.seq);
    }
    if (seqs.size === 0) return;
    const states = await this.sequences.lockStates(m, [...seqs.keys()]);
    // Gaps matter only to a machine some of whose seqs are not past its highest one.
    const behind = states.filter((s) => seqs.get(s.espId)!.some((q) => q <= s.lastSeq)).map((s) => s.espId);
    const gaps = await this.sequences.gapsOf(m, behind);
    const changes: SeqStateChange[] = [];
    for (const state of states) {
      const before = gaps.get(state.espId) ?? [];
      const out = applySeqs({ lastSeq: state.lastSeq, gaps: before }, seqs.get(state.espId)!, now);
      const kept = new Set(out.gaps.map(gapKey));
      const had = new Set(before.map(gapKey));
      if (out.restarted)
        this.logger.warn(`${state.espId} started its sale counter again at 1; its old gaps are closed`);
      if (out.reused) this.logger.warn(`${state.espId} used ${out.reused} seq number(s) a second time`);
      changes.push({
        espId: state.espId,
        lastSeq: out.lastSeq,
        reused: out.reused,
        restarted: out.restarted,
        removed: before.filter((g) => !kept.has(gapKey(g))),
        added: out.gaps.filter((g) => !had.has(gapKey(g))),
      });
    }
    await this.sequences.apply(m, changes);
  }
}
