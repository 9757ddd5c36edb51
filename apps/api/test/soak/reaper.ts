import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const PROCESS = fileURLToPath(new URL('./reaper.process.mjs', import.meta.url));
let child: ChildProcess | undefined;
let counter = 0;

function send(message: Record<string, unknown>): void {
  if (!child) {
    child = fork(PROCESS, [], { execArgv: [], stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
    // The soak must be able to exit while the reaper waits; its channel closing is its signal.
    child.unref();
    (child as ChildProcess & { channel?: { unref(): void } }).channel?.unref();
  }
  if (child.connected) child.send(message);
}

/**
 * Whatever the soak starts is registered here first: if the soak dies without cleaning up, a small
 * watcher process (reaper.process.mjs) kills the processes, runs the stop commands and removes the
 * directories that are still registered. Each call returns the function that unregisters it.
 */
export const reaper = {
  process(pid: number | undefined): () => void {
    if (pid === undefined) return () => undefined;
    send({ op: 'pid', pid });
    return () => send({ op: 'unpid', pid });
  },
  command(file: string, args: string[]): () => void {
    const key = ++counter;
    send({ op: 'command', key, file, args });
    return () => send({ op: 'uncommand', key });
  },
  directory(path: string): () => void {
    send({ op: 'dir', path });
    return () => send({ op: 'undir', path });
  },
};
