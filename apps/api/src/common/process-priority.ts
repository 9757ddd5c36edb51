import { readdirSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/**
 * Lowers the CPU priority of this process to `niceness` (docs/performance.md, "The worker yields"). On Linux a
 * niceness belongs to a thread, and setpriority(2) on a process id changes its main thread alone: every thread
 * listed in /proc/self/task is set (V8's and libuv's threads run before this; threads started later inherit it).
 * Never raises a priority: a thread already as nice or nicer is left, and raising one would need privileges.
 * Returns the threads changed; a thread that ended meanwhile is skipped.
 */
export function lowerPriority(niceness: number): number {
  if (niceness <= 0) return 0;
  let threads: number[];
  try {
    threads = readdirSync('/proc/self/task').map(Number);
  } catch {
    threads = [0]; // No /proc (not Linux): the calling process, which there is the whole process.
  }
  let changed = 0;
  for (const thread of threads) {
    try {
      if (getPriority(thread) >= niceness) continue;
      setPriority(thread, niceness);
      changed++;
    } catch {
      // The thread ended between the listing and the call.
    }
  }
  return changed;
}
