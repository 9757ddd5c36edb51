import { describeFaultStep, type FaultKind, type FaultStep, type MachineRef } from './fault.js';

/** What a scheduled fault is started on (a fleet's machine). */
export interface FaultTarget {
  startFault(kind: FaultKind, durationMs: number): void;
}

export interface FaultSchedulerHooks<T extends FaultTarget> {
  /** A step found its machine and started. */
  started?: (step: FaultStep, target: T) => void;
  /** A step's machine does not exist (yet: a machine still being provisioned has no ESP ID). */
  missing?: (step: FaultStep) => void;
}

/**
 * Plays a fault schedule: each step starts after `afterSeconds` and again every `everySeconds`;
 * the machine ends each fault itself after `forSeconds`. Every timer is owned here, so `stop()`
 * leaves nothing behind.
 */
export class FaultScheduler<T extends FaultTarget = FaultTarget> {
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly steps: readonly FaultStep[],
    private readonly resolve: (ref: MachineRef) => T | undefined,
    private readonly hooks: FaultSchedulerHooks<T> = {},
  ) {}

  start(): void {
    this.stop();
    for (const step of this.steps) this.arm(step, step.afterSeconds * 1000);
  }

  stop(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  /** The steps as one line each, for the start-up banner. */
  describe(): string[] {
    return this.steps.map(describeFaultStep);
  }

  private arm(step: FaultStep, delayMs: number): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.fire(step);
      if (step.everySeconds) this.arm(step, step.everySeconds * 1000);
    }, delayMs);
    this.timers.add(timer);
  }

  private fire(step: FaultStep): void {
    const target = this.resolve(step.machine);
    if (!target) {
      this.hooks.missing?.(step);
      return;
    }
    target.startFault(step.kind, step.forSeconds * 1000);
    this.hooks.started?.(step, target);
  }
}
