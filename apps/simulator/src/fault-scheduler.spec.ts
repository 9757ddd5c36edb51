import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import type { FaultKind, FaultStep } from './fault.js';
import { FaultScheduler } from './fault-scheduler.js';

interface Started {
  machine: string;
  kind: FaultKind;
  ms: number;
  at: number;
}

let started: Started[];
const machine = (name: string) => ({
  name,
  startFault: (kind: FaultKind, ms: number) => void started.push({ machine: name, kind, ms, at: Date.now() }),
});
const fleet = new Map([
  [1, machine('M1')],
  [2, machine('M2')],
]);

beforeEach(() => {
  jest.useFakeTimers({ now: 0 });
  started = [];
});

afterEach(() => jest.useRealTimers());

describe('the fault schedule', () => {
  it('starts each step after its delay, for its duration, and again at every repetition until stopped', () => {
    const steps: FaultStep[] = [
      { kind: 'low-tank', machine: 2, afterSeconds: 10, forSeconds: 5 },
      { kind: 'dark', machine: 1, afterSeconds: 0, forSeconds: 20, everySeconds: 60 },
    ];
    const scheduler = new FaultScheduler(steps, (ref) => fleet.get(ref as number));
    scheduler.start();
    jest.advanceTimersByTime(0);
    expect(started).toEqual([{ machine: 'M1', kind: 'dark', ms: 20_000, at: 0 }]);
    jest.advanceTimersByTime(10_000);
    expect(started[1]).toEqual({ machine: 'M2', kind: 'low-tank', ms: 5_000, at: 10_000 });
    jest.advanceTimersByTime(110_000);
    expect(started.filter((s) => s.kind === 'dark').map((s) => s.at)).toEqual([0, 60_000, 120_000]);
    expect(started.filter((s) => s.kind === 'low-tank')).toHaveLength(1);
    scheduler.stop();
    jest.advanceTimersByTime(600_000);
    expect(started).toHaveLength(4);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('tells of a step whose machine does not exist, and keeps its repetitions', () => {
    const missing: FaultStep[] = [];
    const scheduler = new FaultScheduler(
      [{ kind: 'tds-spike', machine: 'ESP-NOT-YET', afterSeconds: 1, forSeconds: 1, everySeconds: 2 }],
      () => undefined,
      { missing: (s) => missing.push(s) },
    );
    scheduler.start();
    jest.advanceTimersByTime(3_000);
    expect(missing).toHaveLength(2);
    expect(started).toEqual([]);
    scheduler.stop();
  });

  it('reports each started step with its machine', () => {
    const seen: string[] = [];
    const scheduler = new FaultScheduler(
      [{ kind: 'flow-meter', machine: 1, afterSeconds: 0, forSeconds: 1 }],
      (ref) => fleet.get(ref as number),
      { started: (step, target) => seen.push(`${step.kind}@${target.name}`) },
    );
    scheduler.start();
    jest.advanceTimersByTime(1);
    expect(seen).toEqual(['flow-meter@M1']);
    expect(scheduler.describe()).toEqual(['flow-meter on machine 1 at +0s for 1s']);
  });
});
