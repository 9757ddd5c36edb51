import { describe, expect, it } from '@jest/globals';
import { MESSAGE_TEXTS, messageLanguage, messageTexts } from './message-texts.js';

/** Every leaf of a nested text object as `path: text`. */
function leaves(texts: object, prefix = ''): Map<string, string> {
  const found = new Map<string, string>();
  for (const [key, value] of Object.entries(texts)) {
    if (typeof value === 'string') found.set(`${prefix}${key}`, value);
    else for (const [k, v] of leaves(value as object, `${prefix}${key}.`)) found.set(k, v);
  }
  return found;
}

const placeholders = (text: string) => [...text.matchAll(/{{(\w+)}}/g)].map((m) => m[1]).sort();

describe('the texts of emails and SMS', () => {
  it('has a Kiswahili text, with the same placeholders, for every English one', () => {
    const en = leaves(MESSAGE_TEXTS.en);
    const sw = leaves(MESSAGE_TEXTS.sw);
    expect([...sw.keys()].sort()).toEqual([...en.keys()].sort());
    for (const [key, text] of en) {
      expect({ key, placeholders: placeholders(sw.get(key)!) }).toEqual({ key, placeholders: placeholders(text) });
      // Translated, not copied.
      expect({ key, text: sw.get(key) }).not.toEqual({ key, text });
    }
  });

  it('reads English for a recipient without a known language', () => {
    expect(messageLanguage('sw')).toBe('sw');
    expect(messageLanguage(null)).toBe('en');
    expect(messageLanguage('fr')).toBe('en');
    expect(messageTexts('sw')('report.total')).toBe('Jumla');
    expect(messageTexts(messageLanguage(undefined))('report.total')).toBe('Total');
  });

  it('leaves what it interpolates as it is (plain text, nothing escaped)', () => {
    expect(messageTexts('en')('alarm.machine', { machine: 'ESP-1 (Mama <Ntilie> & Sons)' })).toBe(
      'Machine: ESP-1 (Mama <Ntilie> & Sons)',
    );
  });
});
