import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const PROCESS = fileURLToPath(new URL('./fault-proxy.process.mjs', import.meta.url));

export interface ProxyStats {
  accepted: number;
  reset: number;
  held: number;
  open: number;
  latencyMs: number;
  blackholed: boolean;
}

interface Reply {
  id: number;
  ok: boolean;
  error?: string;
  port?: number;
  count?: number;
  stats?: Record<string, ProxyStats>;
}

/**
 * Drives the proxy process (fault-proxy.process.mjs): one listening port per named target. The
 * program is given the proxy's port instead of the server's, so every byte it exchanges with
 * PostgreSQL or Redis can be delayed, held, or cut; the fleet's machines reach the broker through
 * two more (one per group), so that a partition cuts some machines off and not the others.
 */
export class FaultProxy {
  private nextId = 1;
  private readonly waiting = new Map<number, (reply: Reply) => void>();
  private readonly ports = new Map<string, number>();

  private constructor(private readonly child: ChildProcess) {
    child.on('message', (reply: Reply) => {
      this.waiting.get(reply.id)?.(reply);
      this.waiting.delete(reply.id);
    });
  }

  static start(): FaultProxy {
    // It exits by itself when the soak goes away (its IPC channel closes).
    return new FaultProxy(fork(PROCESS, [], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
  }

  private call(message: Record<string, unknown>): Promise<Reply> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`fault proxy did not answer ${message.op}`)), 10_000);
      this.waiting.set(id, (reply) => {
        clearTimeout(timer);
        if (reply.ok) resolve(reply);
        else reject(new Error(`fault proxy: ${reply.error}`));
      });
      this.child.send({ ...message, id });
    });
  }

  /**
   * Opens a proxy named `name` to 127.0.0.1:`targetPort` (replacing one of that name); returns the port
   * the program should use. `holdCloses`: a blackhole swallows FIN and RST too (see the process).
   */
  async add(name: string, targetPort: number, opts: { holdCloses?: boolean } = {}): Promise<number> {
    const { port } = await this.call({ op: 'listen', name, targetPort, holdCloses: opts.holdCloses === true });
    this.ports.set(name, port!);
    return port!;
  }

  port(name: string): number {
    const port = this.ports.get(name);
    if (port === undefined) throw new Error(`no proxy named ${name}`);
    return port;
  }

  /** Each chunk is delivered `latencyMs` after it was read (order kept). */
  async latency(name: string, latencyMs: number): Promise<void> {
    await this.call({ op: 'set', name, latencyMs });
  }

  /** Stops carrying bytes (and answering new connections) until `heal`; nothing is lost meanwhile. */
  async blackhole(name: string): Promise<void> {
    await this.call({ op: 'set', name, blackholed: true });
  }

  async heal(name: string): Promise<void> {
    await this.call({ op: 'set', name, blackholed: false, latencyMs: 0 });
  }

  /** Resets every open connection (TCP RST both ways); returns how many. */
  async reset(name: string): Promise<number> {
    return (await this.call({ op: 'reset', name })).count!;
  }

  /** Abandons every open connection silently (no FIN, no RST to the client); returns how many. */
  async drop(name: string): Promise<number> {
    return (await this.call({ op: 'drop', name })).count!;
  }

  /** Closes the proxy named `name` and resets its connections. */
  async close(name: string): Promise<void> {
    await this.call({ op: 'close', name });
    this.ports.delete(name);
  }

  async stats(): Promise<Record<string, ProxyStats>> {
    return (await this.call({ op: 'stats' })).stats!;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.disconnect();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 2000);
    await exited;
    clearTimeout(timer);
  }
}
