import type { Sale } from '@wv/contracts';
import { EventEmitter } from 'node:events';
import type { FaultKind, MachineRef } from './fault.js';
import type { FleetOptions, FleetStats } from './fleet.types.js';
import { Machine } from './machine.js';
import { generateCredentials, generateMacIdentities } from './machine-identity.js';
import { machinePosition, type SimulatedPosition } from './machine-position.js';
import type { MachineCredentials, MachineIdentity, MachineStats } from './machine.types.js';
import { createRandom, randomSeed } from './prng.js';

export interface FleetEvents {
  online: [machine: Machine];
  offline: [machine: Machine];
  waiting: [machine: Machine];
  provisioned: [machine: Machine, credentials: MachineCredentials];
  refused: [machine: Machine, error: Error];
  fault: [machine: Machine, kind: FaultKind, on: boolean];
}

const DEFAULT_MACHINES = 10;
const SUMMED = [
  'generated',
  'published',
  'pubacked',
  'acked',
  'outbox',
  'duplicatesSent',
  'republished',
  'reconnects',
  'dropped',
  'telemetrySent',
  'offlineSales',
  'cardsRefused',
] as const;

/** N simulated machines sharing one broker URL; the fleet's rate is spread evenly over them. */
export class Fleet extends EventEmitter<FleetEvents> {
  readonly machines: readonly Machine[];
  readonly seed: number;
  private rateValue: number;

  constructor(options: FleetOptions) {
    super();
    const { identities, machines, provision, rate, seed, ...machineOptions } = options;
    this.seed = seed ?? randomSeed();
    const rng = createRandom(this.seed);
    const count = machines ?? identities?.length ?? DEFAULT_MACHINES;
    if (identities && count > identities.length) {
      throw new Error(`${count} machines asked for, but only ${identities.length} identities given`);
    }
    const chosen: readonly MachineIdentity[] =
      identities?.slice(0, count) ??
      (provision ? generateMacIdentities(count, rng.fork(0x1d)) : generateCredentials(count));
    this.rateValue = rate ?? 0;
    const perMachine = chosen.length ? this.rateValue / chosen.length : 0;
    this.machines = chosen.map(
      (identity, i) => new Machine({ ...machineOptions, identity, rate: perMachine, random: rng.fork(i + 1) }),
    );
    for (const m of this.machines) {
      m.on('online', () => this.emit('online', m));
      m.on('offline', () => this.emit('offline', m));
      m.on('waiting', () => this.emit('waiting', m));
      m.on('provisioned', (c) => this.emit('provisioned', m, c));
      m.on('refused', (err) => this.emit('refused', m, err));
      m.on('fault', (kind, on) => this.emit('fault', m, kind, on));
    }
  }

  get rate(): number {
    return this.rateValue;
  }

  /** Where a machine of this fleet stands in Dar es Salaam: fixed by its place in the fleet (docs/web-app.md, "Fleet map"). */
  position(machine: Machine): SimulatedPosition {
    const index = this.machines.indexOf(machine);
    if (index < 0) throw new Error('the machine is not in this fleet');
    return machinePosition(index);
  }

  /** The machine with this ESP ID (provisioned ones included). */
  get(espId: string): Machine | undefined {
    return this.machines.find((m) => m.espId === espId);
  }

  /**
   * Boots every machine and waits until each has reached the broker: online under its id, or
   * connected as `provision` and waiting for one. Rejects after `timeoutMs` naming the laggards
   * (they keep retrying, as firmware does).
   */
  async start(timeoutMs = 10_000): Promise<void> {
    const reached = new Set<Machine>();
    const all = Promise.all(
      this.machines.map(
        (m) =>
          new Promise<void>((resolve) => {
            const done = () => {
              reached.add(m);
              resolve();
            };
            m.once('online', done);
            m.once('waiting', done);
          }),
      ),
    );
    for (const m of this.machines) m.start();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(resolve, timeoutMs, 'timeout');
    });
    const outcome = await Promise.race([all, timeout]);
    clearTimeout(timer);
    if (outcome !== 'timeout') return;
    const late = this.machines.filter((m) => !reached.has(m));
    const examples = late
      .slice(0, 3)
      .map((m) => `${m.espId ?? m.macAddress}${m.lastError ? ` (${m.lastError})` : ''}`)
      .join(', ');
    throw new Error(
      `${late.length} of ${this.machines.length} machines did not reach the broker within ${timeoutMs} ms: ${examples}`,
    );
  }

  /** A machine by its position from 1 or by its ESP ID (how fault schedules name machines). */
  resolve(ref: MachineRef): Machine | undefined {
    return typeof ref === 'number' ? this.machines[ref - 1] : this.get(ref);
  }

  /** Starts a scripted fault on one machine; it ends by itself after `durationMs`. */
  startFault(ref: MachineRef, kind: FaultKind, durationMs: number): Machine {
    const machine = this.resolve(ref);
    if (!machine) throw new Error(`no machine ${ref} in this fleet of ${this.machines.length}`);
    machine.startFault(kind, durationMs);
    return machine;
  }

  /** Waits until every machine is online under its own ESP ID (after provisioning, if any). */
  async waitOnline(timeoutMs = 10_000): Promise<void> {
    await Promise.all(this.machines.map((m) => m.waitOnline(timeoutMs)));
  }

  /** Changes the fleet's total sales per second. */
  setRate(rate: number): void {
    this.rateValue = rate;
    for (const m of this.machines) m.setRate(this.machines.length ? rate / this.machines.length : 0);
  }

  /** Makes `count` sales now, round robin over the machines (handy with `rate: 0` in tests). */
  sell(count: number): Sale[] {
    return Array.from({ length: count }, (_, i) => this.machines[i % this.machines.length]!.sell());
  }

  pauseSelling(): void {
    for (const m of this.machines) m.pauseSelling();
  }

  resumeSelling(): void {
    for (const m of this.machines) m.resumeSelling();
  }

  /**
   * Stops making sales, scripted faults and simulated outages (machines that are out come back now), then waits
   * until every outbox is empty, that is until the server has sent a sales/ack for every sale.
   * Resolves with the stats; rejects after `timeoutMs`.
   */
  async drain(timeoutMs = 10_000): Promise<FleetStats> {
    this.pauseSelling();
    for (const m of this.machines) m.endFaults();
    for (const m of this.machines) m.stopOutages();
    try {
      await Promise.all(this.machines.map((m) => m.drain(timeoutMs)));
    } catch {
      const s = this.stats();
      throw new Error(`fleet not drained after ${timeoutMs} ms: ${s.outbox} sales in ${this.unDrained()} outboxes`);
    }
    return this.stats();
  }

  stats(): FleetStats {
    const all = this.machineStats();
    const total: FleetStats = {
      machines: all.length,
      online: all.filter((s) => s.online).length,
      awaitingId: this.machines.filter((m) => m.awaitingId).length,
      faulty: all.filter((s) => s.faults.length > 0).length,
      ...(Object.fromEntries(SUMMED.map((k) => [k, 0])) as Record<(typeof SUMMED)[number], number>),
    };
    for (const s of all) for (const k of SUMMED) total[k] += s[k];
    return total;
  }

  machineStats(): MachineStats[] {
    return this.machines.map((m) => m.stats());
  }

  /** Stops selling and disconnects every machine cleanly (each says `{online:false}` first). */
  async stop(): Promise<void> {
    await Promise.all(this.machines.map((m) => m.stop()));
  }

  private unDrained(): number {
    return this.machines.filter((m) => m.outboxSize > 0).length;
  }
}
