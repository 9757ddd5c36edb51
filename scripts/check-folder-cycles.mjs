// Fails when folders of apps/api/src import each other in a loop (docs/architecture.md, "Modules and
// conventions"): every file is collapsed onto its top folder (a domain, or infrastructure such as config),
// and any strongly connected component of more than one folder is reported with the imports that tie it.
// The module-level rules (no file loops, no unresolvable import, no foreign repository) live in
// .dependency-cruiser.cjs; `npm run lint` runs both.
import { cruise } from 'dependency-cruiser';
import { createRequire } from 'node:module';

const ROOT = 'apps/api/src';

const config = createRequire(import.meta.url)('../.dependency-cruiser.cjs');
const { output } = await cruise([ROOT], {
  ...config.options,
  exclude: { path: config.options?.exclude?.path ?? [] },
});

const folderOf = (source) => {
  const rest = source.startsWith(`${ROOT}/`) ? source.slice(ROOT.length + 1) : null;
  if (rest === null || !rest.includes('/')) return null; // outside the tree, or a root file (main, bootstrap, app.module)
  return rest.slice(0, rest.indexOf('/'));
};

/** folder → folder → the file imports that make the edge */
const edges = new Map();
for (const module of output.modules) {
  const from = folderOf(module.source);
  if (!from) continue;
  if (!edges.has(from)) edges.set(from, new Map());
  for (const dependency of module.dependencies) {
    const to = folderOf(dependency.resolved);
    if (!to || to === from) continue;
    const targets = edges.get(from);
    if (!targets.has(to)) targets.set(to, []);
    targets.get(to).push(`${module.source} -> ${dependency.resolved}`);
  }
}

// Tarjan's strongly connected components.
let index = 0;
const indices = new Map();
const lowlinks = new Map();
const stack = [];
const onStack = new Set();
const components = [];
const connect = (v) => {
  indices.set(v, index);
  lowlinks.set(v, index);
  index++;
  stack.push(v);
  onStack.add(v);
  for (const w of edges.get(v)?.keys() ?? []) {
    if (!indices.has(w)) {
      connect(w);
      lowlinks.set(v, Math.min(lowlinks.get(v), lowlinks.get(w)));
    } else if (onStack.has(w)) {
      lowlinks.set(v, Math.min(lowlinks.get(v), indices.get(w)));
    }
  }
  if (lowlinks.get(v) === indices.get(v)) {
    const component = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    components.push(component);
  }
};
for (const v of edges.keys()) if (!indices.has(v)) connect(v);

const cycles = components.filter((c) => c.length > 1);
if (cycles.length === 0) {
  console.log(`check-folder-cycles: ${edges.size} folders of ${ROOT}, no folder cycle`);
} else {
  for (const cycle of cycles) {
    const members = new Set(cycle);
    console.error(`Folder cycle in ${ROOT}: ${cycle.sort().join(', ')}`);
    for (const from of cycle)
      for (const [to, imports] of edges.get(from) ?? [])
        if (members.has(to)) for (const line of imports) console.error(`  ${from} -> ${to}: ${line}`);
  }
  process.exitCode = 1;
}
