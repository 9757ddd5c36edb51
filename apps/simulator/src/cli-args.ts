import { parseArgs } from 'node:util';
import { assertTimeZone, DEFAULT_TIME_ZONE } from './day-curve.js';
import { FAULT_KINDS, FAULTS, FaultSpecError, parseFaultSpec, type FaultStep } from './fault.js';

export interface CliArgs {
  help: boolean;
  machines: number | undefined;
  rate: number;
  url: string;
  machinesFile: string | undefined;
  provision: boolean;
  cardsFile: string | undefined;
  durationSeconds: number | undefined;
  offline: number;
  duplicates: number;
  seed: number | undefined;
  batch: number;
  dayCurve: boolean;
  timeZone: string;
  /** Seconds between telemetry messages of each machine; 0 sends none. */
  telemetrySeconds: number;
  /** `--fault` steps, in the order given. */
  faults: FaultStep[];
  faultScheduleFile: string | undefined;
  /** Seconds after the start at which every machine is cut off the network at once (undefined: never). */
  offlineAfterSeconds: number | undefined;
  /** How long that partition lasts, in seconds. */
  offlineForSeconds: number;
}

/** How long a `--offline-after` partition lasts when `--offline-for` is not given. */
export const DEFAULT_OFFLINE_FOR_SECONDS = 60;

const FAULT_HELP = FAULT_KINDS.map((k) => `                         ${k.padEnd(13)} ${FAULTS[k].effect}`).join('\n');

export const USAGE = `Usage: npm run simulate -- [options]

  --machines N         machines to simulate (default 10; with --machines-file, the first N)
  --rate R             sales per second for the whole fleet, as a 24-hour mean (default 5)
  --url URL            broker, mqtt://HOST:PORT (default mqtt://localhost:1883)
  --machines-file F    JSON [{espId, deviceKey, cards?}]: machines that already have an id
  --provision          machines without an id: print their MACs and wait for POST /api/assign_id
  --cards-file F       JSON array of card ids for card sales, sent without local checks (default: each machine
                       sells on the card list the server gives it and refuses unknown, blocked, over-limit
                       and short-of-balance cards itself, as firmware does)
  --duration S         stop after S seconds (default: run until Ctrl-C)
  --offline P          chance per machine every 10 s to lose its connection for 5-30 s (0-1, default 0)
  --offline-after S    a partition: S seconds after the start every machine loses its connection (the will
                       fires), keeps selling on its card list into flash (offline: true), and after
                       --offline-for seconds (default ${DEFAULT_OFFLINE_FOR_SECONDS}) reconnects and sends the backlog oldest first
  --offline-for S      how long the --offline-after partition lasts
  --duplicates P       chance per sale to resend an already sent sale (0-1, default 0)
  --seed N             seed of the PRNG, for a reproducible fleet and sale mix
  --batch N            a backlog is sent in arrays of up to N sales (1-1000, default 50)
  --flat               constant rate (no busy mornings and evenings)
  --timezone TZ        the machines' local time for the day curve (default ${DEFAULT_TIME_ZONE})
  --telemetry S        each machine sends its telemetry every S seconds and when it connects (default 60; 0 = none)
  --fault SPEC         a scripted fault, repeatable: KIND[,machine=M][,after=T][,for=T][,every=T]
                       M: position from 1 or ESP ID (default 1); T: 90, 90s, 5m or 1h; after defaults to 0,
                       for to the kind's own duration, every to never. Each fault ends by itself. KIND:
${FAULT_HELP}
  --fault-schedule F   JSON [{kind, machine?, after?, for?, every?}]: more faults, the same fields
  --help               this text`;

/** A bad command line; main prints the message on one line and exits with code 1. */
export class CliArgsError extends Error {}

function number(flag: string, raw: string | undefined, check: (n: number) => boolean, rule: string) {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || !check(n)) throw new CliArgsError(`--${flag} ${rule}, got "${raw}"`);
  return n;
}

const isInt = (n: number) => Number.isInteger(n);
const probability = (n: number) => n >= 0 && n <= 1;

export function parseCliArgs(argv: readonly string[]): CliArgs {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        help: { type: 'boolean', short: 'h' },
        machines: { type: 'string' },
        rate: { type: 'string' },
        url: { type: 'string' },
        'machines-file': { type: 'string' },
        provision: { type: 'boolean' },
        'cards-file': { type: 'string' },
        duration: { type: 'string' },
        offline: { type: 'string' },
        duplicates: { type: 'string' },
        seed: { type: 'string' },
        batch: { type: 'string' },
        flat: { type: 'boolean' },
        timezone: { type: 'string' },
        telemetry: { type: 'string' },
        fault: { type: 'string', multiple: true },
        'fault-schedule': { type: 'string' },
        'offline-after': { type: 'string' },
        'offline-for': { type: 'string' },
      },
    }));
  } catch (err) {
    // Node's messages span lines; the CLI prints one.
    throw new CliArgsError((err as Error).message.replace(/\s*\n\s*/g, ' '));
  }
  if (values.provision && values['machines-file']) {
    throw new CliArgsError(
      '--provision and --machines-file exclude each other: a machine either has an id or asks for one',
    );
  }
  const url = values.url ?? 'mqtt://localhost:1883';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CliArgsError(`--url must look like mqtt://HOST:PORT, got "${url}"`);
  }
  if (!['mqtt:', 'mqtts:', 'ws:', 'wss:', 'tcp:'].includes(parsed.protocol)) {
    throw new CliArgsError(`--url must use mqtt://, mqtts://, ws:// or wss://, got "${url}"`);
  }
  const timeZone = values.timezone ?? DEFAULT_TIME_ZONE;
  try {
    assertTimeZone(timeZone);
  } catch {
    throw new CliArgsError(`--timezone "${timeZone}" is not a known IANA time zone`);
  }
  let faults: FaultStep[];
  try {
    faults = (values.fault ?? []).map(parseFaultSpec);
  } catch (err) {
    if (err instanceof FaultSpecError) throw new CliArgsError(`--fault ${err.message}`);
    throw err;
  }
  if (values['offline-for'] !== undefined && values['offline-after'] === undefined) {
    throw new CliArgsError('--offline-for needs --offline-after: when the partition begins');
  }
  const seconds = (n: number) => n >= 0 && n <= 7 * 86_400;
  return {
    help: values.help ?? false,
    machines: number('machines', values.machines, (n) => isInt(n) && n >= 1, 'must be a whole number ≥ 1'),
    rate: number('rate', values.rate, (n) => n >= 0, 'must be a number ≥ 0') ?? 5,
    url,
    machinesFile: values['machines-file'],
    provision: values.provision ?? false,
    cardsFile: values['cards-file'],
    durationSeconds: number('duration', values.duration, (n) => n > 0, 'must be a number of seconds > 0'),
    offline: number('offline', values.offline, probability, 'must be a probability between 0 and 1') ?? 0,
    duplicates: number('duplicates', values.duplicates, probability, 'must be a probability between 0 and 1') ?? 0,
    seed: number('seed', values.seed, (n) => isInt(n) && n >= 0 && n < 2 ** 32, 'must be a whole number in [0, 2^32)'),
    batch:
      number('batch', values.batch, (n) => isInt(n) && n >= 1 && n <= 1000, 'must be a whole number in [1, 1000]') ??
      50,
    dayCurve: !(values.flat ?? false),
    timeZone,
    telemetrySeconds:
      number(
        'telemetry',
        values.telemetry,
        (n) => n === 0 || (n >= 0.1 && n <= 86_400),
        'must be 0 or seconds in [0.1, 86400]',
      ) ?? 60,
    faults,
    faultScheduleFile: values['fault-schedule'],
    offlineAfterSeconds: number('offline-after', values['offline-after'], seconds, 'must be seconds in [0, 604800]'),
    offlineForSeconds:
      number('offline-for', values['offline-for'], (n) => n > 0 && seconds(n), 'must be seconds in (0, 604800]') ??
      DEFAULT_OFFLINE_FOR_SECONDS,
  };
}
