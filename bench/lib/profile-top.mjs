// node bench/lib/profile-top.mjs FILE.cpuprofile [N]: the N functions (20 by default) with the most self time in a
// V8 CPU profile (as written by BENCH_BROWSER_PROFILE or node --cpu-prof), and the share of idle time.
import { readFileSync } from 'node:fs';

const [file, n = '20'] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const self = new Map();
const deltas = profile.timeDeltas;
profile.samples.forEach((id, i) => {
  const next = deltas[i + 1] ?? 0;
  const { functionName, url, lineNumber } = byId.get(id).callFrame;
  const key = `${functionName || '(anonymous)'} ${url.split('/').pop()}:${lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + next);
});
const total = [...self.values()].reduce((a, b) => a + b, 0);
const rows = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(n));
console.log(`${file}: ${(total / 1000).toFixed(0)} ms sampled`);
for (const [key, us] of rows)
  console.log(`${(us / 1000).toFixed(1).padStart(9)} ms ${((100 * us) / total).toFixed(1).padStart(5)} %  ${key}`);
