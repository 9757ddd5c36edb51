#!/usr/bin/env node
// `node scripts/check-citations.mjs`: the repository stands alone. Comments, strings, test names and
// docs cite its own documents (docs/, README.md) or public specifications (MQTT 3.1.1, RFCs), never
// working notes that live outside it. Lists file:line of every such citation in the files git knows
// (tracked, or new and not ignored) and exits 1 when there is one. Run by `npm run lint`.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';

// Built from pieces so that this file does not cite what it forbids.
const word = (...parts) => parts.join('');
const FORBIDDEN = [
  { name: 'the interface contract', pattern: new RegExp(`\\b${word('CON', 'TRACT')}\\b`) },
  { name: 'the house style notes', pattern: new RegExp(`\\b${word('STY', 'LE')}\\b`) },
  { name: 'the toolchain notes', pattern: new RegExp(`\\b${word('TOOL', 'CHAIN')}\\b`) },
  { name: 'the developer notes', pattern: new RegExp(`\\b${word('DEVEL', 'OPERS')}\\b`) },
  {
    name: 'a file outside the repository',
    pattern: new RegExp(`\\.\\./${word('sha', 'red')}\\b|/work/${word('sha', 'red')}\\b`),
  },
  { name: 'the screens specification', pattern: new RegExp(`\\b${word('se', 'ed')} sections?\\s+\\d`, 'i') },
  { name: 'an issue number', pattern: new RegExp(`\\b${word('iss', 'ues?')} #?\\d+\\b`, 'i') },
];

// Generated or third-party files that are not ours to word.
const SKIP = [/(^|\/)package-lock\.json$/, /(^|\/)node_modules\//, /(^|\/)dist\//];

function listFiles() {
  const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return [...new Set(out.split('\0').filter(Boolean))].sort();
}

/** Text of a file, or undefined for a binary, a missing (deleted but still staged) or a large file. */
function textOf(file) {
  if (!existsSync(file) || !statSync(file).isFile() || statSync(file).size > 2_000_000) return undefined;
  const buffer = readFileSync(file);
  return buffer.includes(0) ? undefined : buffer.toString('utf8');
}

const hits = [];
for (const file of listFiles()) {
  if (SKIP.some((skip) => skip.test(file))) continue;
  const text = textOf(file);
  if (text === undefined) continue;
  text.split('\n').forEach((line, i) => {
    for (const { name, pattern } of FORBIDDEN) {
      if (pattern.test(line)) hits.push(`${file}:${i + 1}: cites ${name}: ${line.trim().slice(0, 160)}`);
    }
  });
}

if (hits.length > 0) {
  console.error(hits.join('\n'));
  console.error(
    `check-citations: ${hits.length} citation(s) of documents outside the repository; ` +
      'cite docs/ or README.md instead.',
  );
  process.exit(1);
}
console.log('check-citations: no citation of documents outside the repository');
