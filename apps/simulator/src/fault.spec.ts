import { describe, expect, it } from '@jest/globals';
import { describeFaultStep, FAULT_KINDS, FAULTS, parseFaultSchedule, parseFaultSpec, parseSeconds } from './fault.js';

describe('a fault spec (--fault)', () => {
  it('defaults to machine 1, now, for the kind’s own duration, once', () => {
    expect(parseFaultSpec('low-tank')).toEqual({ kind: 'low-tank', machine: 1, afterSeconds: 0, forSeconds: 300 });
    expect(parseFaultSpec('dark')).toEqual({ kind: 'dark', machine: 1, afterSeconds: 0, forSeconds: 900 });
  });

  it('reads every option, with units, and a machine by position or by ESP ID', () => {
    expect(parseFaultSpec('tds-spike,machine=3,after=90s,for=5m,every=1h')).toEqual({
      kind: 'tds-spike',
      machine: 3,
      afterSeconds: 90,
      forSeconds: 300,
      everySeconds: 3600,
    });
    expect(parseFaultSpec('stop-selling, machine=ESP32-DEMO-04 ,for=1.5m')).toMatchObject({
      machine: 'ESP32-DEMO-04',
      forSeconds: 90,
    });
  });

  it('gives every kind an effect and a duration past its alarm’s default threshold', () => {
    for (const kind of FAULT_KINDS) {
      expect(FAULTS[kind].effect.length).toBeGreaterThan(10);
      expect(FAULTS[kind].defaultSeconds).toBeGreaterThan(0);
    }
    expect(FAULTS.dark.defaultSeconds).toBeGreaterThan(10 * 60); // offline after 10 minutes
    expect(FAULTS['stop-selling'].defaultSeconds).toBeGreaterThan(120 * 60); // no sales for 120 minutes
  });

  it.each([
    ['leak', /unknown fault "leak": one of low-tank, tds-spike, flow-meter, dark, stop-selling/],
    ['dark,machine=0', /machines are counted from 1/],
    ['dark,machine=a/b', /not a position or an ESP ID/],
    ['dark,for=0', /for must be a duration like 90, 90s, 5m or 1h above 0, got "0"/],
    ['dark,for=ten', /for must be a duration/],
    ['dark,after=-5', /after must be a duration/],
    ['dark,every=10,for=10', /every=10s must be longer than for=10s/],
    ['dark,colour=red', /unknown option "colour" \(machine, after, for, every\)/],
  ])('refuses %j with a clear sentence', (spec, message) => {
    expect(() => parseFaultSpec(spec)).toThrow(message);
  });

  it('describes a step in one line', () => {
    expect(describeFaultStep(parseFaultSpec('flow-meter,machine=2,after=1m,for=10m,every=90m'))).toBe(
      'flow-meter on machine 2 at +60s for 600s, every 5400s',
    );
    expect(describeFaultStep(parseFaultSpec('dark,machine=ESP-9'))).toBe('dark on ESP-9 at +0s for 900s');
  });
});

describe('a fault schedule file (--fault-schedule)', () => {
  it('reads the same fields as --fault, numbers as seconds or strings with units', () => {
    expect(
      parseFaultSchedule([
        { kind: 'low-tank', machine: 2, after: 30, for: '5m', every: '20m' },
        { kind: 'dark', machine: 'ESP-7' },
      ]),
    ).toEqual([
      { kind: 'low-tank', machine: 2, afterSeconds: 30, forSeconds: 300, everySeconds: 1200 },
      { kind: 'dark', machine: 'ESP-7', afterSeconds: 0, forSeconds: 900 },
    ]);
    expect(parseFaultSchedule([])).toEqual([]);
  });

  it.each([
    [{}, /expected a JSON array/],
    [[1], /entry 0: expected an object/],
    [[{ kind: 'dark', when: 5 }], /entry 0: unknown field "when"/],
    [[{ kind: 'flood' }], /entry 0: unknown fault "flood"/],
    [[{ machine: 1 }], /entry 0: kind must be one of/],
    [[{ kind: 'dark' }, { kind: 'dark', for: true }], /entry 1: for must be a number of seconds or a string/],
    [[{ kind: 'dark', machine: 0 }], /entry 0: machine=0: machines are counted from 1/],
    [[{ kind: 'dark', machine: [1] }], /entry 0: machine must be a position from 1 or an ESP ID/],
    [[{ kind: 'dark', for: 60, every: 30 }], /entry 0: every=30s must be longer than for=60s/],
  ])('refuses %j', (doc, message) => {
    expect(() => parseFaultSchedule(doc)).toThrow(message);
  });
});

describe('durations', () => {
  it('reads seconds, minutes and hours', () => {
    expect(parseSeconds('45', 'x')).toBe(45);
    expect(parseSeconds('2m', 'x')).toBe(120);
    expect(parseSeconds('0.5h', 'x')).toBe(1800);
    expect(parseSeconds('0', 'x', true)).toBe(0);
    expect(() => parseSeconds('0', 'x')).toThrow(/above 0/);
    expect(() => parseSeconds('1d', 'x')).toThrow(/x must be a duration/);
  });
});
