// Shared by every benchmark: a result is { name, figures: { key: value }, baseline?: {...}, notes? }.
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';

const RESULTS = new URL('../results/latest.json', import.meta.url);

/** Merges one benchmark's result into bench/results/latest.json and prints it as a table. */
export function report(result) {
  mkdirSync(new URL('../results/', import.meta.url), { recursive: true });
  const all = existsSync(RESULTS) ? JSON.parse(readFileSync(RESULTS, 'utf8')) : {};
  all[result.name] = { ...result, measuredAt: new Date().toISOString() };
  writeFileSync(RESULTS, JSON.stringify(all, null, 2) + '\n');
  console.log(`\n${result.name}`);
  console.table(result.figures);
  if (result.notes) console.log(result.notes);
}

/** p-th percentile (0–100) of numbers. */
export function percentile(values, p) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}
