import type { FaultKind } from './fault.js';
import type { Random } from './prng.js';
import { roundVolume } from './tariff.js';

/** What starting and ending a fault does to the machine (machine.ts supplies it). */
export interface FaultEffects {
  begin(kind: FaultKind): void;
  end(kind: FaultKind): void;
}

/** A failing flow meter stops the valve after this share of the volume (uniform in the range). */
const SHORT_DISPENSE_SHARE: readonly [number, number] = [0.2, 0.8];

/**
 * The faults active on one machine, each with the timer that ends it. Starting a fault that is
 * already on extends it to the new end; it begins once and ends once.
 */
export class MachineFaults {
  private readonly active = new Map<FaultKind, NodeJS.Timeout>();

  constructor(
    private readonly rng: Random,
    private readonly effects: FaultEffects,
  ) {}

  has(kind: FaultKind): boolean {
    return this.active.has(kind);
  }

  get kinds(): FaultKind[] {
    return [...this.active.keys()];
  }

  /** A fault that stops sales: a power cut or a machine that no longer sells. */
  get blocksSelling(): boolean {
    return this.active.has('dark') || this.active.has('stop-selling');
  }

  /** Starts `kind` now (or extends it) and ends it after `durationMs`. */
  start(kind: FaultKind, durationMs: number): void {
    const running = this.active.get(kind);
    if (running) clearTimeout(running);
    this.active.set(
      kind,
      setTimeout(() => this.end(kind), durationMs),
    );
    if (!running) this.effects.begin(kind);
  }

  /** Ends `kind` now; false when it was not on. */
  end(kind: FaultKind): boolean {
    const timer = this.active.get(kind);
    if (!timer) return false;
    clearTimeout(timer);
    this.active.delete(kind);
    this.effects.end(kind);
    return true;
  }

  /** Ends every fault now, with its effects (a drained fleet is healthy again). */
  endAll(): void {
    for (const kind of this.kinds) this.end(kind);
  }

  /** Drops every timer without effects: the machine is stopping. */
  cancelAll(): void {
    for (const timer of this.active.values()) clearTimeout(timer);
    this.active.clear();
  }

  /** The litres the flow meter measures for a sale of `volume`: short while the meter is failing. */
  dispensed(volume: number): number {
    if (!this.active.has('flow-meter')) return volume;
    const [min, max] = SHORT_DISPENSE_SHARE;
    return roundVolume(volume * (min + this.rng.next() * (max - min)));
  }
}
