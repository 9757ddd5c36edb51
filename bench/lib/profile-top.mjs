// node bench/lib/profile-top.mjs FILE.cpuprofile [N] [--by function|package|total] [--match REGEX]
// Reads a V8 CPU profile (as written by BENCH_BROWSER_PROFILE, BENCH_PROFILE or node --cpu-prof):
//  --by function (default): the N functions with the most self time;
//  --by package: self time per npm package (node_modules/<name>), Node's own code, or our files;
//  --by total: the N functions with the most total time (self and everything they call), which shows
//    where each millisecond of a stage goes (e.g. --match 'ingestBatch|insertBatch').
// Idle and garbage collection show as (idle) and (garbage collector).
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args.splice(i, 2)[1] : fallback;
};
const by = option('--by', 'function');
const match = option('--match', null);
const [file, n = '20'] = args;
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

const frameKey = ({ functionName, url, lineNumber }) =>
  `${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${lineNumber + 1}`;
const packageOf = ({ url, functionName }) => {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return modules[1];
  if (url.startsWith('node:')) return 'node';
  const ours = /\/(apps\/[^/]+|broker|libs\/[^/]+|bench)\//.exec(url);
  return ours ? ours[1] : url;
};

const time = new Map();
const add = (key, us) => time.set(key, (time.get(key) ?? 0) + us);
let total = 0;
profile.samples.forEach((id, i) => {
  const us = profile.timeDeltas[i + 1] ?? 0;
  total += us;
  const frame = byId.get(id).callFrame;
  if (by === 'package') return add(packageOf(frame), us);
  if (by === 'function') return add(frameKey(frame), us);
  // total: every distinct function on the sample's stack gets the sample once
  const seen = new Set();
  for (let node = id; node !== undefined; node = parent.get(node)) {
    const key = frameKey(byId.get(node).callFrame);
    if (!seen.has(key)) add(key, us);
    seen.add(key);
  }
});
const rows = [...time.entries()]
  .filter(([key]) => !match || new RegExp(match).test(key))
  .sort((a, b) => b[1] - a[1])
  .slice(0, Number(n));
console.log(`${file}: ${(total / 1000).toFixed(0)} ms sampled (${by === 'total' ? 'total' : 'self'} time)`);
for (const [key, us] of rows) {
  console.log(`${(us / 1000).toFixed(1).padStart(9)} ms ${((100 * us) / total).toFixed(1).padStart(5)} %  ${key}`);
}
