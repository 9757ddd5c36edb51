import { describe, expect, it } from '@jest/globals';
import { CliArgsError, parseCliArgs } from './cli-args.js';
import { loadFleetOptions } from './cli-config.js';

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
});
