import { readFile } from 'node:fs/promises';
import type { CliArgs } from './cli-args.js';
import { CliArgsError } from './cli-args.js';
import { parseFaultSchedule, type FaultStep } from './fault.js';
import type { FleetOptions } from './fleet.types.js';
import { parseCardList, parseCredentialsList } from './machine-identity.js';

async function readJson(flag: string, path: string, read: (p: string) => Promise<string>): Promise<unknown> {
  let text: string;
  try {
    text = await read(path);
  } catch (err) {
    throw new CliArgsError(
      `--${flag} ${path}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
    );
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new CliArgsError(`--${flag} ${path}: not valid JSON (${(err as Error).message})`);
  }
}

/** Turns the command line into fleet options, reading and validating the JSON files it names. */
export async function loadFleetOptions(
  args: CliArgs,
  read: (path: string) => Promise<string> = (p) => readFile(p, 'utf8'),
): Promise<FleetOptions> {
  const options: FleetOptions = {
    url: args.url,
    rate: args.rate,
    seed: args.seed,
    provision: args.provision,
    offlineProbability: args.offline,
    duplicateProbability: args.duplicates,
    backlogBatchSize: args.batch,
    dayCurve: args.dayCurve,
    timeZone: args.timeZone,
    telemetryIntervalMs: args.telemetrySeconds * 1000,
    // Card sales as firmware makes them, unless the command line names the cards to sell on.
    sellFromCardList: !args.cardsFile,
  };
  if (args.machinesFile) {
    const doc = await readJson('machines-file', args.machinesFile, read);
    try {
      options.identities = parseCredentialsList(doc);
    } catch (err) {
      throw new CliArgsError(`--machines-file ${args.machinesFile}: ${(err as Error).message}`);
    }
    if (args.machines !== undefined && args.machines > options.identities.length) {
      throw new CliArgsError(
        `--machines ${args.machines} is more than the ${options.identities.length} machines in ${args.machinesFile}`,
      );
    }
  }
  if (args.cardsFile) {
    const doc = await readJson('cards-file', args.cardsFile, read);
    try {
      options.cards = parseCardList(doc);
    } catch (err) {
      throw new CliArgsError(`--cards-file ${args.cardsFile}: ${(err as Error).message}`);
    }
    if (options.cards.length === 0) throw new CliArgsError(`--cards-file ${args.cardsFile}: the list is empty`);
  }
  if (args.machines !== undefined) options.machines = args.machines;
  return options;
}

/**
 * The `--fault` steps followed by those of `--fault-schedule`, checked against the fleet: positions
 * within its size, ESP IDs among its machines (`espIds` null: machines still to be provisioned, whose
 * ids are not known yet).
 */
export async function loadFaultSteps(
  args: CliArgs,
  machineCount: number,
  espIds: readonly string[] | null,
  read: (path: string) => Promise<string> = (p) => readFile(p, 'utf8'),
): Promise<FaultStep[]> {
  const steps = [...args.faults];
  if (args.faultScheduleFile) {
    const doc = await readJson('fault-schedule', args.faultScheduleFile, read);
    try {
      steps.push(...parseFaultSchedule(doc));
    } catch (err) {
      throw new CliArgsError(`--fault-schedule ${args.faultScheduleFile}: ${(err as Error).message}`);
    }
  }
  for (const step of steps) {
    if (typeof step.machine === 'number' && step.machine > machineCount) {
      throw new CliArgsError(`fault ${step.kind} on machine ${step.machine}: the fleet has ${machineCount} machines`);
    }
    if (typeof step.machine === 'string' && espIds && !espIds.includes(step.machine)) {
      throw new CliArgsError(`fault ${step.kind} on ${step.machine}: no machine of the fleet has that ESP ID`);
    }
  }
  return steps;
}
