/**
 * Scripted faults of a simulated machine: what each does to the machine, and how a run names them
 * (`--fault`, `--fault-schedule`). Each fault ends by itself after its duration, so the alarms it
 * opens on the server clear by themselves (docs/alarms.md lists the rules).
 */
export const FAULT_KINDS = ['low-tank', 'tds-spike', 'flow-meter', 'dark', 'stop-selling'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultInfo {
  /** One line for `--help` and the logs. */
  effect: string;
  /** How long it lasts when the step says nothing: long enough for its alarm's default threshold. */
  defaultSeconds: number;
}

export const FAULTS: Readonly<Record<FaultKind, FaultInfo>> = {
  'low-tank': {
    effect: 'the supply is cut and the tank drains to 5 %; the float valve refills it when the fault ends',
    defaultSeconds: 300,
  },
  'tds-spike': {
    effect: 'the membrane fails: TDS climbs to about 850 ppm, and falls back when the fault ends',
    defaultSeconds: 180,
  },
  'flow-meter': {
    effect: 'the flow meter fails: every sale dispenses 20-80 % of its volume',
    defaultSeconds: 600,
  },
  dark: {
    effect: 'a power cut: the connection drops without DISCONNECT (the will fires), nothing is sold or sent',
    defaultSeconds: 900,
  },
  'stop-selling': {
    effect: 'online and reporting telemetry, but no sale (a jammed coin acceptor and card reader)',
    defaultSeconds: 9_000,
  },
};

/** A machine by its position in the fleet (1 = the first) or by its ESP ID. */
export type MachineRef = number | string;

/** One line of a fault schedule: `kind` on `machine`, `afterSeconds` from the start, for `forSeconds`. */
export interface FaultStep {
  kind: FaultKind;
  machine: MachineRef;
  afterSeconds: number;
  forSeconds: number;
  /** Repeats every this many seconds (more than `forSeconds`: a fault ends before it starts again). */
  everySeconds?: number;
}

/** A bad fault spec or schedule; main prints it on one line. */
export class FaultSpecError extends Error {}

const UNITS: Record<string, number> = { '': 1, s: 1, m: 60, h: 3600 };

/** `90`, `90s`, `5m`, `1.5h` → seconds. */
export function parseSeconds(text: string, what: string, allowZero = false): number {
  const m = /^(\d+(?:\.\d+)?)\s*([smh]?)$/.exec(text.trim());
  const n = m ? Number(m[1]) * UNITS[m[2]!]! : NaN;
  if (!Number.isFinite(n) || n < 0 || (!allowZero && n === 0)) {
    throw new FaultSpecError(
      `${what} must be a duration like 90, 90s, 5m or 1h${allowZero ? '' : ' above 0'}, got "${text}"`,
    );
  }
  return n;
}

function parseKind(text: string): FaultKind {
  if ((FAULT_KINDS as readonly string[]).includes(text)) return text as FaultKind;
  throw new FaultSpecError(`unknown fault "${text}": one of ${FAULT_KINDS.join(', ')}`);
}

function parseMachineRef(text: string): MachineRef {
  const t = text.trim();
  if (/^\d+$/.test(t)) {
    const n = Number(t);
    if (n < 1) throw new FaultSpecError(`machine=${t}: machines are counted from 1`);
    return n;
  }
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(t)) throw new FaultSpecError(`machine=${t}: not a position or an ESP ID`);
  return t;
}

function checkStep(step: FaultStep, where: string): FaultStep {
  if (step.everySeconds !== undefined && step.everySeconds <= step.forSeconds) {
    throw new FaultSpecError(
      `${where}: every=${step.everySeconds}s must be longer than for=${step.forSeconds}s (a fault ends before it repeats)`,
    );
  }
  return step;
}

/**
 * `--fault KIND[,machine=M][,after=T][,for=T][,every=T]`: the machine (position from 1, or ESP ID;
 * default 1), when it starts (default now), how long it lasts (default per kind) and how often it
 * comes back (default never).
 */
export function parseFaultSpec(spec: string): FaultStep {
  const [kindText, ...options] = spec.split(',');
  const kind = parseKind(kindText!.trim());
  const step: FaultStep = { kind, machine: 1, afterSeconds: 0, forSeconds: FAULTS[kind].defaultSeconds };
  for (const option of options) {
    const eq = option.indexOf('=');
    const key = eq < 0 ? option.trim() : option.slice(0, eq).trim();
    const value = eq < 0 ? '' : option.slice(eq + 1);
    if (key === 'machine') step.machine = parseMachineRef(value);
    else if (key === 'after') step.afterSeconds = parseSeconds(value, 'after', true);
    else if (key === 'for') step.forSeconds = parseSeconds(value, 'for');
    else if (key === 'every') step.everySeconds = parseSeconds(value, 'every');
    else throw new FaultSpecError(`"${spec}": unknown option "${key}" (machine, after, for, every)`);
  }
  return checkStep(step, `"${spec}"`);
}

const SCHEDULE_KEYS = new Set(['kind', 'machine', 'after', 'for', 'every']);

function durationField(value: unknown, what: string, allowZero: boolean): number {
  if (typeof value === 'number') return parseSeconds(String(value), what, allowZero);
  if (typeof value === 'string') return parseSeconds(value, what, allowZero);
  throw new FaultSpecError(`${what} must be a number of seconds or a string like "5m"`);
}

/** A schedule file: `[{kind, machine?, after?, for?, every?}]`, the same fields as `--fault`. */
export function parseFaultSchedule(doc: unknown): FaultStep[] {
  if (!Array.isArray(doc)) throw new FaultSpecError('expected a JSON array of {kind, machine?, after?, for?, every?}');
  return doc.map((entry: unknown, i) => {
    const where = `entry ${i}`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      throw new FaultSpecError(`${where}: expected an object`);
    }
    const e = entry as Record<string, unknown>;
    const unknown = Object.keys(e).find((k) => !SCHEDULE_KEYS.has(k));
    if (unknown) throw new FaultSpecError(`${where}: unknown field "${unknown}"`);
    if (typeof e.kind !== 'string') throw new FaultSpecError(`${where}: kind must be one of ${FAULT_KINDS.join(', ')}`);
    let kind: FaultKind;
    try {
      kind = parseKind(e.kind);
    } catch (err) {
      throw new FaultSpecError(`${where}: ${(err as Error).message}`);
    }
    const field = (name: string, allowZero: boolean) => {
      try {
        return durationField(e[name], name, allowZero);
      } catch (err) {
        throw new FaultSpecError(`${where}: ${(err as Error).message}`);
      }
    };
    let machine: MachineRef = 1;
    if (e.machine !== undefined) {
      if (typeof e.machine !== 'number' && typeof e.machine !== 'string') {
        throw new FaultSpecError(`${where}: machine must be a position from 1 or an ESP ID`);
      }
      try {
        machine = parseMachineRef(String(e.machine));
      } catch (err) {
        throw new FaultSpecError(`${where}: ${(err as Error).message}`);
      }
    }
    const step: FaultStep = {
      kind,
      machine,
      afterSeconds: e.after === undefined ? 0 : field('after', true),
      forSeconds: e.for === undefined ? FAULTS[kind].defaultSeconds : field('for', false),
    };
    if (e.every !== undefined) step.everySeconds = field('every', false);
    return checkStep(step, where);
  });
}

/** `low-tank on machine 2 at +30s for 300s, every 1200s`: how the logs and the demo describe a step. */
export function describeFaultStep(step: FaultStep): string {
  const machine = typeof step.machine === 'number' ? `machine ${step.machine}` : step.machine;
  const every = step.everySeconds ? `, every ${step.everySeconds}s` : '';
  return `${step.kind} on ${machine} at +${step.afterSeconds}s for ${step.forSeconds}s${every}`;
}
