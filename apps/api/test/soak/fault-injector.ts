import type { FaultSpec } from './fault-plan.js';
import type { MosquittoInstance } from '../support/mosquitto-instance.js';
import type { ProgramSupervisor } from './program-supervisor.js';
import type { Recovery } from './recovery-probe.js';
import type { SoakCluster } from './soak-cluster.js';

export interface FaultOutcome {
  spec: FaultSpec;
  startedAt: number;
  /** The moment the fault is over: the process restarted, the server up, the network healed. */
  endedAt: number;
  /** Resolves when whatever the fault left restarting is ready again (a killed process). */
  settled: Promise<void>;
  recovery?: Recovery;
  /** kill-worker-sending: whether a message was in the server's hands when the worker died (else it died anyway). */
  midSend?: boolean;
}

/** How long kill-worker-sending waits for a message to be in flight before it kills the worker anyway. */
const MID_SEND_WAIT_MS = 20_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Carries out one planned fault against the run's processes, servers and proxies. */
export class FaultInjector {
  constructor(
    private readonly cluster: SoakCluster,
    private readonly supervisor: ProgramSupervisor,
    /** External mode: the machines' Mosquitto (restart-broker). */
    private readonly broker?: MosquittoInstance,
  ) {}

  async inject(spec: FaultSpec): Promise<FaultOutcome> {
    const startedAt = Date.now();
    let settled: Promise<void> = Promise.resolve();
    let midSend: boolean | undefined;
    const { proxy, redis, pg, outside } = this.cluster;
    switch (spec.kind) {
      case 'kill-api':
      case 'kill-worker': {
        const role = spec.kind === 'kill-api' ? 'api' : 'worker';
        await this.supervisor.kill(role);
        await sleep(spec.durationMs);
        // Restarted as a supervisor would; the system is measured from the moment it is started.
        settled = this.supervisor.start(role).then(() => undefined);
        break;
      }
      case 'restart-redis':
        await redis.stop(spec.stop === 'SIGTERM' ? 'SIGTERM' : 'SIGKILL');
        await sleep(spec.durationMs);
        await redis.start();
        break;
      case 'restart-broker': {
        // The external broker's own failure: same port, same persistence and dynamic-security files.
        if (!this.broker) throw new Error('restart-broker is a fault of external MQTT mode (SOAK_MQTT_MODE=external)');
        await this.broker.stop(spec.stop === 'SIGTERM' ? 'SIGTERM' : 'SIGKILL');
        await sleep(spec.durationMs);
        await this.broker.start();
        break;
      }
      case 'restart-pg':
        await pg.stop(spec.stop === 'fast' ? 'fast' : 'immediate');
        await sleep(spec.durationMs);
        await pg.start();
        break;
      case 'latency-pg':
      case 'latency-redis': {
        const name = spec.kind === 'latency-pg' ? 'pg' : 'redis';
        await proxy.latency(name, spec.latencyMs ?? 50);
        await sleep(spec.durationMs);
        await proxy.heal(name);
        break;
      }
      case 'reset-pg':
      case 'reset-redis':
        await proxy.reset(spec.kind === 'reset-pg' ? 'pg' : 'redis');
        break;
      case 'blackhole-pg':
      case 'blackhole-redis': {
        const name = spec.kind === 'blackhole-pg' ? 'pg' : 'redis';
        await proxy.blackhole(name);
        await sleep(spec.durationMs);
        if (spec.end === 'reset') await proxy.reset(name);
        if (spec.end === 'drop') await proxy.drop(name);
        await proxy.heal(name);
        break;
      }
      case 'partition-mqtt': {
        const name = `mqtt-${spec.group ?? 'a'}`;
        await proxy.blackhole(name);
        await sleep(spec.durationMs);
        if (spec.end === 'reset') await proxy.reset(name);
        await proxy.heal(name);
        break;
      }
      case 'stop-smtp':
        await outside.smtpDown();
        await sleep(spec.durationMs);
        await outside.smtpUp();
        break;
      case 'fail-sms':
        await outside.smsDown(spec.sms ?? '5xx');
        await sleep(spec.durationMs);
        await outside.smsUp();
        break;
      case 'kill-worker-sending': {
        // The server has taken the message and holds its answer until the worker is dead.
        const killed = outside.onNextMessage(spec.channel ?? 'email', () => this.supervisor.kill('worker'));
        const timer = new Promise<'timeout'>((r) => setTimeout(r, MID_SEND_WAIT_MS, 'timeout'));
        midSend = (await Promise.race([killed.then(() => 'hit' as const), timer])) === 'hit';
        if (!midSend) {
          outside.disarm();
          await this.supervisor.kill('worker');
        }
        await sleep(spec.durationMs);
        settled = this.supervisor.start('worker').then(() => undefined);
        break;
      }
    }
    settled.catch(() => undefined);
    return { spec, startedAt, endedAt: Date.now(), settled, midSend };
  }
}
