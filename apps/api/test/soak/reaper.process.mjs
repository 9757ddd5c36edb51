// Cleans up after the soak when it dies without doing so itself (Ctrl-C, SIGTERM, SIGKILL, a
// crash): it holds the list of what the soak started and, when its parent goes away, kills and
// removes whatever is still listed. Forked by reaper.ts; plain JavaScript, forked as is.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';

const pids = new Set();
const commands = new Map();
const dirs = new Set();

process.on('message', (m) => {
  if (m.op === 'pid') pids.add(m.pid);
  else if (m.op === 'unpid') pids.delete(m.pid);
  else if (m.op === 'command') commands.set(m.key, m);
  else if (m.op === 'uncommand') commands.delete(m.key);
  else if (m.op === 'dir') dirs.add(m.path);
  else if (m.op === 'undir') dirs.delete(m.path);
});

process.on('disconnect', () => {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  for (const { file, args } of commands.values()) spawnSync(file, args, { timeout: 30_000, stdio: 'ignore' });
  for (const path of dirs) rmSync(path, { recursive: true, force: true });
  process.exit(0);
});
