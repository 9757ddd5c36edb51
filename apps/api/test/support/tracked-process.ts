import { spawn, type ChildProcess } from 'node:child_process';
import { reaper } from '../soak/reaper.js';

export interface TrackedProcess {
  child: ChildProcess;
  /** Resolves when the process has exited. */
  exited: Promise<void>;
  /** The last few kilobytes of its output, for error messages. */
  output(): string;
}

/**
 * Starts a server process the tests own (Redis, Mosquitto, …), registered with the reaper so that it dies with a
 * test that dies, and resolves once `ready()` says it serves; a process that exits or stays unready for 20 s is an
 * error naming its output. `echo`: its stdout also goes to this process's stderr (for debugging).
 */
export async function startTracked(
  name: string,
  command: string,
  args: string[],
  ready: () => Promise<boolean>,
  echo = false,
): Promise<TrackedProcess> {
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000));
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (chunk: Buffer) => {
    keep(chunk);
    if (echo) process.stderr.write(chunk);
  });
  child.stderr!.on('data', keep);
  const forget = reaper.process(child.pid);
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      forget();
      resolve();
    }),
  );
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited at start:\n${output}`);
    if (await ready()) return { child, exited, output: () => output };
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${name} did not become ready:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}
