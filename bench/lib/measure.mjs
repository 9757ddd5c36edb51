// Timing helpers shared by the sales-view benchmarks (queries, export, live).
import { readFileSync } from 'node:fs';
import { percentile } from './report.mjs';

/** Runs `fn` `warmup` times unmeasured, then `iterations` times one after another; latencies in ms. */
export async function measure(fn, { iterations = 200, warmup = 20 } = {}) {
  for (let i = 0; i < warmup; i++) await fn(i);
  const ms = [];
  for (let i = 0; i < iterations; i++) {
    const t0 = performance.now();
    await fn(i);
    ms.push(performance.now() - t0);
  }
  return summarize(ms);
}

/** p50/p95/p99/max of latencies in ms, rounded to 0.1 ms. */
export function summarize(ms) {
  const r = (v) => Math.round(v * 10) / 10;
  return {
    n: ms.length,
    p50: r(percentile(ms, 50)),
    p95: r(percentile(ms, 95)),
    p99: r(percentile(ms, 99)),
    max: r(Math.max(...ms)),
  };
}

/** A JSON client of the API under test; every non-2xx answer is an error (a benchmark must not time failures). */
export function apiClient(baseUrl, token) {
  return async function get(path) {
    const res = await fetch(`${baseUrl}/api${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    const text = await res.text();
    if (!res.ok) throw new Error(`GET ${path}: ${res.status} ${text.slice(0, 200)}`);
    return JSON.parse(text);
  };
}

export async function login(baseUrl, identifier, password) {
  const res = await fetch(`${baseUrl}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ identifier, password }),
  });
  if (res.status !== 200) throw new Error(`login ${identifier}: ${res.status} ${await res.text()}`);
  return (await res.json()).token;
}

/** Resident set size of a process in bytes, from /proc (Linux). */
export function rssOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)[1]) * 1024;
}

/** Samples a process's RSS every `everyMs` until stopped; `stop()` returns the peak in bytes. */
export function sampleRss(pid, everyMs = 20) {
  let peak = rssOf(pid);
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssOf(pid));
    } catch {
      // the process ended
    }
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}

export const mb = (bytes) => Math.round(bytes / 1e5) / 10;

/** Today in the business time zone, as YYYY-MM-DD. */
export const todayIn = (timeZone = 'Africa/Dar_es_Salaam') =>
  new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date());
