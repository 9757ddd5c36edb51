import { useCallback, useState, type ChangeEvent } from 'react';
import { fieldErrors } from '@/lib/api-client';

type FieldElement = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

export interface FieldBinding {
  name: string;
  value: string;
  onChange: (event: ChangeEvent<FieldElement>) => void;
  /** What is wrong with the value in plain words; present only after `showServerErrors` put it there. */
  error?: string;
}

/** What a form step receives to wire its inputs to fields it does not own. */
export type BindField<K extends string> = (name: K) => FieldBinding;

/** Plain words for a field the server refused, given the server's own sentence about it. */
export type FieldWords<K extends string> = (name: K, serverText: string) => string;

/**
 * Controlled string fields of one form: `bind(name)` gives an input its name, value and onChange, and its
 * `error` once `showServerErrors` put one there (changing the value or `reset` clears it).
 */
export function useFields<T extends Record<string, string>>(initial: T) {
  const [values, setValues] = useState<T>(initial);
  const [errors, setErrors] = useState<Partial<Record<keyof T, string>>>({});

  const set = useCallback((name: keyof T, value: string) => {
    setValues((prev) => ({ ...prev, [name]: value }));
    setErrors((prev) => {
      if (!(name in prev)) return prev;
      const { [name]: _cleared, ...rest } = prev;
      return rest as Partial<Record<keyof T, string>>;
    });
  }, []);

  const bind: BindField<keyof T & string> = (name) => ({
    name,
    value: values[name],
    onChange: (event) => set(name, event.target.value),
    ...(errors[name] ? { error: errors[name] } : {}),
  });

  const reset = useCallback(() => {
    setValues(initial);
    setErrors({});
  }, [initial]);

  /**
   * Puts a refused call's field errors (a 400 naming fields, docs/rest-api.md, "Conventions") beside the
   * fields of this form, in `words`; other fields' errors are cleared. Returns the fields that got one, so the
   * form can say "check the marked fields" instead of repeating the server's field names.
   */
  const showServerErrors = useCallback(
    (error: unknown, words: FieldWords<keyof T & string>): (keyof T & string)[] => {
      const found: Partial<Record<keyof T, string>> = {};
      for (const [path, text] of Object.entries(fieldErrors(error))) {
        if (path in initial) found[path as keyof T] = words(path as keyof T & string, text);
      }
      setErrors(found);
      return Object.keys(found) as (keyof T & string)[];
    },
    [initial],
  );

  return { values, set, bind, reset, errors, showServerErrors };
}
