import { readFileSync } from 'node:fs';
import { spawnServer, type Deployment, type ServerProcess } from '../support/server-process.js';
import { reaper } from './reaper.js';

/** The program split as in a scaled-out deployment (docs/operations.md, "Configuration": APP_ROLES). */
export type Role = 'api' | 'worker';
const ROLES: Record<Role, string> = { api: 'api,broker', worker: 'worker' };

export interface Crash {
  role: Role;
  at: number;
  exit: string;
  outputTail: string;
}

/**
 * Keeps one api/broker process and one worker process running, as systemd or Kubernetes would: the
 * soak kills them on purpose (`kill`), and the supervisor starts them again when told. An exit the
 * soak did not cause is a crash: it is recorded (the run fails) and the process is restarted, so
 * the rest of the run still checks that nothing was lost.
 */
export class ProgramSupervisor {
  readonly crashes: Crash[] = [];
  /** When the soak killed a process on purpose (`kill`), in epoch milliseconds, oldest first. */
  readonly kills: { role: Role; at: number }[] = [];
  /** Start-ups that ended in an error before the process was ready (retried). */
  readonly failedStarts: string[] = [];
  private readonly running = new Map<Role, ServerProcess>();
  private readonly expectedExits = new Set<ServerProcess>();
  private readonly starting = new Map<Role, Promise<ServerProcess>>();
  /** Every process started, in order, for the logs of a failed run. */
  private readonly generations: { role: Role; startedAt: number; server: ServerProcess }[] = [];
  private closed = false;

  constructor(private readonly deployment: Deployment) {}

  /** Starts `role` and waits until it is ready; a start that fails (say, a database still down) is retried. */
  start(role: Role): Promise<ServerProcess> {
    const pending = this.starting.get(role);
    if (pending) return pending;
    const started = this.startWithRetries(role).finally(() => this.starting.delete(role));
    this.starting.set(role, started);
    return started;
  }

  /** Starts `role` unless a process of it runs (or is starting) already. */
  async ensureRunning(role: Role): Promise<void> {
    if (!this.running.has(role)) await this.start(role);
  }

  private async startWithRetries(role: Role): Promise<ServerProcess> {
    const deadline = Date.now() + 90_000;
    for (;;) {
      try {
        const server = await spawnServer(this.deployment, { APP_ROLES: ROLES[role] }, 45_000);
        this.watch(role, server);
        this.running.set(role, server);
        this.generations.push({ role, startedAt: Date.now(), server });
        return server;
      } catch (error) {
        this.failedStarts.push(`${role}: ${String(error).slice(0, 2000)}`);
        if (this.closed || Date.now() > deadline) throw error;
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  }

  private watch(role: Role, server: ServerProcess): void {
    const forget = reaper.process(server.process.pid);
    server.process.once('exit', (code, signal) => {
      forget();
      if (this.expectedExits.delete(server) || this.closed) return;
      this.crashes.push({
        role,
        at: Date.now(),
        exit: signal ? `signal ${signal}` : `code ${code}`,
        outputTail: server.output().slice(-4000),
      });
      if (this.running.get(role) === server) this.running.delete(role);
      void this.start(role).catch(() => undefined);
    });
  }

  /** SIGKILL: no shutdown hook runs, in-flight work is cut wherever it was. */
  async kill(role: Role): Promise<void> {
    await this.starting.get(role)?.catch(() => undefined);
    const server = this.running.get(role);
    if (!server) return;
    this.running.delete(role);
    this.expectedExits.add(server);
    this.kills.push({ role, at: Date.now() });
    await server.kill();
  }

  /** Forgets the output of processes that have exited (called between runs that passed). */
  forgetExited(): void {
    const alive = new Set(this.running.values());
    for (let i = this.generations.length - 1; i >= 0; i--) {
      if (!alive.has(this.generations[i]!.server)) this.generations.splice(i, 1);
    }
  }

  /** Resident memory of the running process of `role`, in MB (Linux), or null. */
  rssMb(role: Role): number | null {
    const pid = this.running.get(role)?.process.pid;
    if (!pid) return null;
    try {
      const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      return kb ? Math.round(Number(kb[1]) / 1024) : null;
    } catch {
      return null;
    }
  }

  /** The output of every process of `role` since the last `forgetExited`, oldest first (for diagnosis). */
  output(role: Role): string {
    return this.generations
      .filter((g) => g.role === role)
      .map((g) => `--- ${role} process started at ${new Date(g.startedAt).toISOString()} ---\n${g.server.output()}`)
      .join('\n');
  }

  /** SIGTERM every process (a graceful stop: the broker drains), SIGKILL after a grace period. */
  async stopAll(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.starting.values()].map((p) => p.catch(() => undefined)));
    const servers = [...this.running.values()];
    this.running.clear();
    for (const s of servers) this.expectedExits.add(s);
    await Promise.all(servers.map((s) => s.stop()));
  }
}
