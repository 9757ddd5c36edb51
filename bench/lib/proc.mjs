// CPU and memory of the processes in a benchmark, read from Linux /proc (proc(5)).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';

const CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

const read = (path) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null; // the process ended
  }
};

/** CPU seconds (user + system) a process has used, or 0 when it is gone. */
export function cpuSeconds(pid) {
  const stat = read(`/proc/${pid}/stat`);
  if (!stat) return 0;
  // The command name may hold spaces: the fields after it start past its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK; // utime, stime (fields 14 and 15)
}

/** The niceness of each thread of a process (getpriority(2) of each thread id), sorted and without repeats. */
export function nicenessOf(pid) {
  const values = new Set();
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      values.add(getPriority(Number(task)));
    } catch {
      // the thread ended
    }
  }
  return [...values].sort((a, b) => a - b);
}

/** Pids of the processes whose command name (comm) is `name`, e.g. `postgres` or `redis-server`. */
export function pidsNamed(name) {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry) && read(`/proc/${entry}/comm`)?.trim() === name)
    .map(Number);
}

/** CPU seconds the whole machine has been busy (all but idle and iowait), and its number of cores. */
export function machineCpu() {
  const lines = readFileSync('/proc/stat', 'utf8').split('\n');
  const [, ...ticks] = lines[0].trim().split(/\s+/).map(Number);
  const idle = ticks[3] + ticks[4];
  const total = ticks.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busySeconds: (total - idle) / CLK_TCK, cores: lines.filter((l) => /^cpu\d/.test(l)).length };
}

/**
 * Proportional set size in bytes (shared pages divided among the processes sharing them), so that the
 * sum over PostgreSQL's processes counts its shared buffers once.
 */
export function pssBytes(pid) {
  const rollup = read(`/proc/${pid}/smaps_rollup`);
  const kb = rollup && /^Pss:\s+(\d+) kB/m.exec(rollup);
  return kb ? Number(kb[1]) * 1024 : 0;
}

/**
 * CPU of named groups of processes over a stretch of time. `groups` maps a name to a function returning
 * its pids now (PostgreSQL starts a process per connection). `mark()` starts the stretch; `shares()` gives
 * each group's CPU as a share of one core over the stretch, and the machine's busy share of all cores.
 */
export function cpuMeter(groups) {
  let start;
  const sample = () => {
    const perGroup = {};
    for (const [name, pids] of Object.entries(groups)) {
      perGroup[name] = new Map(pids().map((pid) => [pid, cpuSeconds(pid)]));
    }
    return { at: performance.now(), perGroup, machine: machineCpu() };
  };
  return {
    mark() {
      start = sample();
    },
    shares() {
      const end = sample();
      const seconds = (end.at - start.at) / 1000;
      const shares = {};
      for (const [name, pids] of Object.entries(end.perGroup)) {
        let used = 0;
        // A pid that was not there at the start counts from zero: it started during the stretch.
        for (const [pid, cpu] of pids) used += cpu - (start.perGroup[name].get(pid) ?? 0);
        shares[name] = used / seconds;
      }
      const busy = (end.machine.busySeconds - start.machine.busySeconds) / seconds;
      return { shares, machineBusy: busy, cores: end.machine.cores, seconds };
    },
  };
}
