import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { en } from './en';
import { currentLanguage, i18n, setLanguage } from './index';
import { sw } from './sw';

/** Every key path of a resource with its text. */
function entries(resource: object, prefix = ''): [string, string][] {
  return Object.entries(resource).flatMap(([key, value]) =>
    typeof value === 'string' ? [[`${prefix}${key}`, value] as [string, string]] : entries(value, `${prefix}${key}.`),
  );
}

const variables = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

afterEach(async () => {
  localStorage.clear();
  await setLanguage('en');
});

describe('the translations', () => {
  it('give every English text a Kiswahili one, with the same placeholders', () => {
    const english = new Map(entries(en));
    const swahili = new Map(entries(sw));
    expect([...swahili.keys()].sort()).toEqual([...english.keys()].sort());
    for (const [key, text] of english) {
      expect({ key, text: swahili.get(key)?.trim() ? 'present' : 'empty' }).toEqual({ key, text: 'present' });
      expect({ key, variables: variables(swahili.get(key)!) }).toEqual({ key, variables: variables(text) });
    }
  });

  it('start in English for a browser that asks for English, and count in each language', () => {
    expect(currentLanguage()).toBe('en');
    expect(i18n.t('alarms.total', { count: 1 })).toBe('1 alarm');
    expect(i18n.t('alarms.total', { count: 3 })).toBe('3 alarms');
  });

  it('switch to Kiswahili, remember the choice and mark the document', async () => {
    await setLanguage('sw');
    expect(currentLanguage()).toBe('sw');
    expect(localStorage.getItem('language')).toBe('sw');
    expect(document.documentElement.lang).toBe('sw');
    expect(i18n.t('alarm.kind.offline')).toBe('Nje ya mtandao');
    expect(i18n.t('alarms.attempts', { count: 1 })).toBe('Jaribio 1');
    expect(i18n.t('alarms.attempts', { count: 4 })).toBe('Majaribio 4');
  });

  it('say in the console when a key is in no language, as the every-route browser test looks for', () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      expect(i18n.t('alarm.kind.no_such_kind' as never)).toBe('alarm.kind.no_such_kind');
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^Missing translation: .*alarm\.kind\.no_such_kind$/));
    } finally {
      warn.mockRestore();
    }
  });
});
