import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import type { FaultKind } from './fault.js';
import { MachineFaults } from './machine-faults.js';
import { createRandom } from './prng.js';

let log: string[];
let faults: MachineFaults;

beforeEach(() => {
  jest.useFakeTimers();
  log = [];
  faults = new MachineFaults(createRandom(5), {
    begin: (k: FaultKind) => log.push(`begin ${k}`),
    end: (k: FaultKind) => log.push(`end ${k}`),
  });
});

afterEach(() => {
  faults.cancelAll();
  jest.useRealTimers();
});

describe('the faults of a machine', () => {
  it('begins a fault once and ends it by itself after its duration', () => {
    faults.start('low-tank', 1_000);
    expect(faults.has('low-tank')).toBe(true);
    jest.advanceTimersByTime(999);
    expect(log).toEqual(['begin low-tank']);
    jest.advanceTimersByTime(1);
    expect(log).toEqual(['begin low-tank', 'end low-tank']);
    expect(faults.kinds).toEqual([]);
  });

  it('extends a fault started again while it is on, without beginning it twice', () => {
    faults.start('dark', 1_000);
    jest.advanceTimersByTime(800);
    faults.start('dark', 1_000);
    jest.advanceTimersByTime(900);
    expect(log).toEqual(['begin dark']);
    jest.advanceTimersByTime(100);
    expect(log).toEqual(['begin dark', 'end dark']);
  });

  it('says which faults stop sales', () => {
    faults.start('tds-spike', 1_000);
    expect(faults.blocksSelling).toBe(false);
    faults.start('stop-selling', 1_000);
    expect(faults.blocksSelling).toBe(true);
    faults.end('stop-selling');
    faults.start('dark', 1_000);
    expect(faults.blocksSelling).toBe(true);
  });

  it('ends every fault at once with its effects, or cancels them silently when the machine stops', () => {
    faults.start('dark', 5_000);
    faults.start('flow-meter', 5_000);
    faults.endAll();
    expect(log.sort()).toEqual(['begin dark', 'begin flow-meter', 'end dark', 'end flow-meter']);
    expect(faults.end('dark')).toBe(false);
    faults.start('low-tank', 5_000);
    faults.cancelAll();
    jest.advanceTimersByTime(10_000);
    expect(log.filter((l) => l.includes('low-tank'))).toEqual(['begin low-tank']);
  });

  it('measures the full volume normally, and 20–80 % of it (3 decimals) while the flow meter fails', () => {
    expect(faults.dispensed(10)).toBe(10);
    faults.start('flow-meter', 1_000);
    for (let i = 0; i < 500; i++) {
      const d = faults.dispensed(20);
      expect(d).toBeGreaterThanOrEqual(4);
      expect(d).toBeLessThanOrEqual(16);
      expect(Math.round(d * 1000)).toBeCloseTo(d * 1000, 6);
    }
    jest.advanceTimersByTime(1_000);
    expect(faults.dispensed(20)).toBe(20);
  });
});
