import { describe, expect, it } from '@jest/globals';
import { CliArgsError, parseCliArgs } from './cli-args.js';
import { loadFaultSteps, loadFleetOptions } from './cli-config.js';

const files = (content: Record<string, string>) => async (path: string) => {
  if (!(path in content)) throw Object.assign(new Error('nope'), { code: 'ENOENT' });
  return content[path]!;
};

describe('the command line', () => {
  it('has the documented defaults: 5 sales/s on mqtt://localhost:1883, no faults, batches of 50', () => {
    expect(parseCliArgs([])).toMatchObject({
      machines: undefined,
      rate: 5,
      url: 'mqtt://localhost:1883',
      provision: false,
      offline: 0,
      duplicates: 0,
      batch: 50,
      dayCurve: true,
      durationSeconds: undefined,
      telemetrySeconds: 60,
      faults: [],
      faultScheduleFile: undefined,
      offlineAfterSeconds: undefined,
      offlineForSeconds: 60,
    });
  });

  it('reads every flag', () => {
    const args = parseCliArgs(
      '--machines 3 --rate 2.5 --url mqtt://10.0.0.2:1884 --provision --duration 60 --offline 0.1 --duplicates 0.05 --seed 42 --batch 10 --flat --timezone UTC'.split(
        ' ',
      ),
    );
    expect(args).toMatchObject({
      machines: 3,
      rate: 2.5,
      url: 'mqtt://10.0.0.2:1884',
      provision: true,
      durationSeconds: 60,
      offline: 0.1,
      duplicates: 0.05,
      seed: 42,
      batch: 10,
      dayCurve: false,
      timeZone: 'UTC',
    });
  });

  it.each([
    [['--machines', '0'], /--machines must be a whole number ≥ 1, got "0"/],
    [['--machines', 'ten'], /--machines must be a whole number/],
    [['--rate=-1'], /--rate must be a number ≥ 0/],
    [['--rate', '-1'], /Option '--rate' argument is ambiguous\. Did you forget/],
    [['--offline', '1.5'], /--offline must be a probability between 0 and 1/],
    [['--duplicates', 'x'], /--duplicates must be a probability/],
    [['--duration', '0'], /--duration must be a number of seconds > 0/],
    [['--seed', '1.5'], /--seed must be a whole number/],
    [['--url', 'http://x:1'], /--url must use mqtt:\/\//],
    [['--url', 'nope'], /--url must look like mqtt:\/\/HOST:PORT/],
    [['--timezone', 'Mars/Olympus'], /not a known IANA time zone/],
    [['--bogus'], /Unknown option '--bogus'/],
    [['--provision', '--machines-file', 'm.json'], /exclude each other/],
    [['--telemetry', '0.01'], /--telemetry must be 0 or seconds in \[0.1, 86400\], got "0.01"/],
    [['--telemetry', 'often'], /--telemetry must be 0 or seconds/],
    [['--fault', 'meltdown'], /--fault unknown fault "meltdown": one of low-tank, tds-spike/],
    [['--fault', 'dark,for=5m,every=5m'], /--fault "dark,for=5m,every=5m": every=300s must be longer than for=300s/],
    [['--offline-after', '-1'], /Option '--offline-after' argument is ambiguous/],
    [['--offline-after=-1'], /--offline-after must be seconds in \[0, 604800\], got "-1"/],
    [['--offline-after', 'soon'], /--offline-after must be seconds/],
    [['--offline-after', '10', '--offline-for', '0'], /--offline-for must be seconds in \(0, 604800\], got "0"/],
    [['--offline-after', '10', '--offline-for', '700000'], /--offline-for must be seconds in \(0, 604800\]/],
    [['--offline-for', '30'], /--offline-for needs --offline-after/],
  ])('refuses %j with one clear sentence', (argv, message) => {
    expect(() => parseCliArgs(argv)).toThrow(CliArgsError);
    expect(() => parseCliArgs(argv)).toThrow(message);
  });

  it('loads machines and cards from JSON files', async () => {
    const read = files({
      'm.json': JSON.stringify([
        { espId: 'ESP1', deviceKey: 'k1' },
        { espId: 'ESP2', deviceKey: 'k2', cards: ['C1'] },
      ]),
      'c.json': '["CARD-1", "CARD-2"]',
    });
    const options = await loadFleetOptions(parseCliArgs(['--machines-file', 'm.json', '--cards-file', 'c.json']), read);
    expect(options.identities).toEqual([
      { espId: 'ESP1', deviceKey: 'k1' },
      { espId: 'ESP2', deviceKey: 'k2', cards: ['C1'] },
    ]);
    expect(options.cards).toEqual(['CARD-1', 'CARD-2']);
    expect(options.machines).toBeUndefined();
  });

  it.each([
    [['--machines-file', 'missing.json'], /--machines-file missing.json: cannot read it \(ENOENT\)/],
    [['--machines-file', 'bad.json'], /not valid JSON/],
    [['--machines-file', 'nokey.json'], /entry 0: deviceKey must be a non-empty string/],
    [['--machines-file', 'm.json', '--machines', '5'], /--machines 5 is more than the 1 machines in m.json/],
    [['--cards-file', 'obj.json'], /expected a JSON array of card ids/],
    [['--cards-file', 'empty.json'], /the list is empty/],
  ])('refuses bad files: %j', async (argv, message) => {
    const read = files({
      'bad.json': '[{',
      'nokey.json': '[{"espId":"ESP1"}]',
      'm.json': '[{"espId":"ESP1","deviceKey":"k"}]',
      'obj.json': '{}',
      'empty.json': '[]',
    });
    await expect(loadFleetOptions(parseCliArgs(argv), read)).rejects.toThrow(message);
  });

  it('reads the telemetry interval and repeated --fault flags in order', () => {
    const args = parseCliArgs([
      '--telemetry',
      '15',
      '--fault',
      'low-tank,machine=2,after=30,for=5m,every=20m',
      '--fault=dark,machine=ESP-9',
      '--fault-schedule',
      'faults.json',
    ]);
    expect(args.telemetrySeconds).toBe(15);
    expect(args.faults).toEqual([
      { kind: 'low-tank', machine: 2, afterSeconds: 30, forSeconds: 300, everySeconds: 1200 },
      { kind: 'dark', machine: 'ESP-9', afterSeconds: 0, forSeconds: 900 },
    ]);
    expect(args.faultScheduleFile).toBe('faults.json');
    expect(parseCliArgs(['--telemetry', '0']).telemetrySeconds).toBe(0);
  });

  it('reads a partition: when every machine goes offline and for how long', () => {
    expect(parseCliArgs(['--offline-after', '30', '--offline-for', '90.5'])).toMatchObject({
      offlineAfterSeconds: 30,
      offlineForSeconds: 90.5,
    });
    expect(parseCliArgs(['--offline-after', '0'])).toMatchObject({ offlineAfterSeconds: 0, offlineForSeconds: 60 });
  });

  it('sells on the card list the server gives, unless a cards file names the cards', async () => {
    expect((await loadFleetOptions(parseCliArgs([]))).sellFromCardList).toBe(true);
    const read = files({ 'c.json': '["CARD-1"]' });
    expect((await loadFleetOptions(parseCliArgs(['--cards-file', 'c.json']), read)).sellFromCardList).toBe(false);
  });

  it('gives the machines their telemetry interval', async () => {
    expect((await loadFleetOptions(parseCliArgs(['--telemetry', '2.5']))).telemetryIntervalMs).toBe(2_500);
    expect((await loadFleetOptions(parseCliArgs([]))).telemetryIntervalMs).toBe(60_000);
  });

  it('adds the steps of a schedule file after the --fault flags, checked against the fleet', async () => {
    const read = files({
      'faults.json': JSON.stringify([{ kind: 'tds-spike', machine: 3, after: '1m', for: 120 }]),
      'far.json': JSON.stringify([{ kind: 'dark', machine: 12 }]),
      'typo.json': JSON.stringify([{ kind: 'dark', machin: 1 }]),
    });
    const args = parseCliArgs(['--fault', 'stop-selling', '--fault-schedule', 'faults.json']);
    expect(await loadFaultSteps(args, 3, null, read)).toEqual([
      { kind: 'stop-selling', machine: 1, afterSeconds: 0, forSeconds: 9_000 },
      { kind: 'tds-spike', machine: 3, afterSeconds: 60, forSeconds: 120 },
    ]);
    await expect(loadFaultSteps(args, 2, null, read)).rejects.toThrow(
      'fault tds-spike on machine 3: the fleet has 2 machines',
    );
    await expect(loadFaultSteps(parseCliArgs(['--fault-schedule', 'far.json']), 10, null, read)).rejects.toThrow(
      /machine 12: the fleet has 10 machines/,
    );
    await expect(loadFaultSteps(parseCliArgs(['--fault-schedule', 'typo.json']), 10, null, read)).rejects.toThrow(
      '--fault-schedule typo.json: entry 0: unknown field "machin"',
    );
    await expect(loadFaultSteps(parseCliArgs(['--fault-schedule', 'none.json']), 10, null, read)).rejects.toThrow(
      /--fault-schedule none.json: cannot read it \(ENOENT\)/,
    );
    const byId = parseCliArgs(['--fault', 'dark,machine=ESP-2']);
    expect(await loadFaultSteps(byId, 2, ['ESP-1', 'ESP-2'], read)).toHaveLength(1);
    await expect(loadFaultSteps(byId, 2, ['ESP-1', 'ESP-3'], read)).rejects.toThrow(
      'fault dark on ESP-2: no machine of the fleet has that ESP ID',
    );
    // Machines still to be provisioned have no ids yet: an id cannot be checked before the run.
    expect(await loadFaultSteps(byId, 2, null, read)).toHaveLength(1);
  });
});
