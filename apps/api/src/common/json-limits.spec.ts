import { describe, expect, it } from '@jest/globals';
import { escapeNul, isStorableText, jsonTextTooDeep, pathOfUnstorableText, valueTooDeep } from './json-limits.js';

describe('JSON input limits', () => {
  it('measures the nesting of JSON text without parsing it, ignoring brackets inside strings', () => {
    expect(jsonTextTooDeep('[{"a":[1]}]', 3)).toBe(false);
    expect(jsonTextTooDeep('[{"a":[[1]]}]', 3)).toBe(true);
    expect(jsonTextTooDeep('{"a":"[[[[[[[[\\"[[[["}', 1)).toBe(false);
    expect(jsonTextTooDeep('['.repeat(100_000) + ']'.repeat(100_000))).toBe(true);
  });

  it('measures the nesting of a parsed value without recursion', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(valueTooDeep(deep)).toBe(true);
    expect(valueTooDeep({ a: [{ b: 1 }] }, 3)).toBe(false);
    expect(valueTooDeep({ a: [{ b: [] }] }, 3)).toBe(true);
  });

  it('finds text PostgreSQL cannot store as given: NUL characters and lone surrogates, in values and keys', () => {
    expect(pathOfUnstorableText({ a: [{ b: 'x\u0000' }] }, '')).toBe('a.0.b');
    expect(pathOfUnstorableText({ ['k\u0000']: 1 }, 'body')).toBe('body');
    expect(pathOfUnstorableText({ a: 'fine 👩🏽‍🔧', b: ['ok'] }, '')).toBeNull();
    expect(isStorableText('\ud800')).toBe(false);
    expect(isStorableText('x\udfff')).toBe(false);
    expect(isStorableText('\ud83d\ude00')).toBe(true);
    expect(escapeNul('a\u0000b')).toBe('a\\u0000b');
  });
});
