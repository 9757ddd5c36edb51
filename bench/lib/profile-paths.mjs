// node bench/lib/profile-paths.mjs FILE.cpuprofile [--min PERCENT] [--focus REGEX] [--callers REGEX] [--depth N]
// Call paths of a V8 CPU profile (node --cpu-prof, BENCH_PROFILE, BENCH_CPU_PROF), beside profile-top.mjs's flat lists:
//  default: the call tree top-down, every path with at least --min (1) % of the sampled time, with total and self;
//  --focus REGEX: the same tree, rooted at every frame matching REGEX (merged), so that a function's time splits
//    by what it calls wherever it is called from;
//  --callers REGEX: bottom-up, the time of the frames matching REGEX split by the chain of --depth (6) callers
//    above them: who makes a costly function run.
// Frames print as `name file:line`; time in ms and % of the sampled time (idle included, as the process lived).
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args.splice(i, 2)[1] : fallback;
};
const min = Number(option('--min', '1'));
const focus = option('--focus', null);
const callers = option('--callers', null);
const depth = Number(option('--depth', '6'));
const [file] = args;
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

const frameKey = ({ functionName, url, lineNumber }) =>
  `${functionName || '(anonymous)'} ${url ? `${url.split('/').slice(-2).join('/')}:${lineNumber + 1}` : ''}`.trim();
const keyOf = (id) => frameKey(byId.get(id).callFrame);

// Self time per node from the samples (the profile's hitCount ignores the sampling intervals' lengths).
const self = new Map();
let total = 0;
profile.samples.forEach((id, i) => {
  const us = profile.timeDeltas[i + 1] ?? 0;
  total += us;
  self.set(id, (self.get(id) ?? 0) + us);
});
const fmt = (us) => `${(us / 1000).toFixed(0).padStart(7)} ms ${((100 * us) / total).toFixed(1).padStart(5)} %`;
console.log(`${file}: ${(total / 1000).toFixed(0)} ms sampled`);

/** A tree merged by frame: { key, self, total, children: Map }. */
const tree = (key) => ({ key, self: 0, total: 0, children: new Map() });
function addPath(root, keys, us) {
  let node = root;
  node.total += us;
  for (const key of keys) {
    if (!node.children.has(key)) node.children.set(key, tree(key));
    node = node.children.get(key);
    node.total += us;
  }
  node.self += us;
}
const stackOf = (id) => {
  const keys = [];
  for (let node = id; node !== undefined; node = parent.get(node)) keys.push(keyOf(node));
  return keys.reverse(); // root first
};

function print(node, indent = '') {
  const children = [...node.children.values()].filter((c) => (100 * c.total) / total >= min);
  children.sort((a, b) => b.total - a.total);
  for (const child of children) {
    // Bottom-up, a frame's own time means nothing: only the total of the path so far.
    const own = callers ? '' : `  self ${(child.self / 1000).toFixed(0).padStart(5)} ms`;
    console.log(`${fmt(child.total)}${own}  ${indent}${child.key}`);
    print(child, `${indent}  `);
  }
}

if (callers) {
  const re = new RegExp(callers);
  const root = tree('(callers)');
  for (const [id, us] of self) {
    const keys = stackOf(id);
    // The deepest matching frame on the stack: its callers, nearest first.
    const at = keys.findLastIndex((k) => re.test(k));
    if (at < 0) continue;
    addPath(root, keys.slice(Math.max(0, at - depth), at + 1).reverse(), us);
  }
  console.log(`time under frames matching /${callers}/, by their callers (nearest first):`);
  print(root);
} else {
  const re = focus ? new RegExp(focus) : null;
  const root = tree('(root)');
  for (const [id, us] of self) {
    const keys = stackOf(id);
    if (!re) {
      addPath(root, keys, us);
      continue;
    }
    // From the outermost matching frame down, so that recursion is counted once.
    const at = keys.findIndex((k) => re.test(k));
    if (at >= 0) addPath(root, [`[${focus}]`, ...keys.slice(at + 1)], us);
  }
  print(root);
}
