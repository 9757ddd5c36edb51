// CPU time spent by the program under test, for bench/alarms.bench.mjs: its processes (from
// /proc/<pid>/stat, utime + stime, every thread included) and the PostgreSQL backends serving its
// database (pg_stat_activity), so that other work on this shared box is left out. Redis is shared and
// not counted.
import { readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return null; // the process ended
  }
}

/** `sample()` of the CPU seconds so far of `pids()` and the database's backends (except `db`'s own). */
export function cpuProbe(db, database, pids) {
  return {
    async sample() {
      const { rows } = await db.query(
        `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`,
        [database],
      );
      const backends = new Map();
      for (const r of rows) {
        const s = cpuSeconds(r.pid);
        if (s !== null) backends.set(r.pid, s);
      }
      const processes = new Map();
      for (const [name, pid] of Object.entries(pids())) processes.set(name, { pid, s: cpuSeconds(pid) ?? 0 });
      return { backends, processes };
    },
    /** CPU seconds between two samples: per process name, and the database backends together. */
    diff(a, b) {
      const out = { db: 0 };
      for (const [name, p] of b.processes) {
        const before = a.processes.get(name);
        out[name] = before && before.pid === p.pid ? p.s - before.s : p.s;
      }
      // A backend that started in between counts from zero; one that ended in between is lost (rare:
      // the program's pools keep their connections).
      for (const [pid, s] of b.backends) out.db += s - (a.backends.get(pid) ?? 0);
      return out;
    },
  };
}
