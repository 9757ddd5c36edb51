/**
 * Input that passes JSON.parse but that the rest of the program cannot handle: nesting deeper than
 * any request or sale needs (JSON.stringify and the validators recurse, and overflow the stack past
 * a few thousand levels); U+0000, which PostgreSQL text cannot store (SQLSTATE 22021); and lone
 * UTF-16 surrogates (JSON's "\ud800"), which jsonb refuses and text silently turns into U+FFFD.
 * The checks walk iteratively, so they cannot overflow the stack themselves.
 */
export const MAX_JSON_DEPTH = 32;

/** True when JSON text nests arrays/objects deeper than `max`, scanned without parsing it. */
export function jsonTextTooDeep(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** True when a parsed value nests arrays/objects deeper than `max`. */
export function valueTooDeep(value: unknown, max = MAX_JSON_DEPTH): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth + 1 > max) return true;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Text PostgreSQL stores as given: no U+0000 and no lone surrogate. */
export const isStorableText = (s: string): boolean => !s.includes('\u0000') && !LONE_SURROGATE.test(s);

/** The path (`a.b.0`) of the first string or key that is not storable text, or null. */
export function pathOfUnstorableText(value: unknown, root: string): string | null {
  const stack: [unknown, string][] = [[value, root]];
  while (stack.length) {
    const [node, path] = stack.pop()!;
    if (typeof node === 'string') {
      if (!isStorableText(node)) return path;
    } else if (node !== null && typeof node === 'object') {
      for (const [key, child] of Object.entries(node)) {
        if (!isStorableText(key)) return path;
        stack.push([child, path === '' ? key : `${path}.${key}`]);
      }
    }
  }
  return null;
}

/** For text we write ourselves (reasons, logs): U+0000 spelled out as JSON would. */
export const escapeNul = (text: string): string => text.replaceAll('\u0000', '\\u0000');
