import { useCallback, useState, type ChangeEvent } from 'react';

type FieldElement = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

export interface FieldBinding {
  name: string;
  value: string;
  onChange: (event: ChangeEvent<FieldElement>) => void;
}

/** What a form step receives to wire its inputs to fields it does not own. */
export type BindField<K extends string> = (name: K) => FieldBinding;

/** Controlled string fields of one form: `bind(name)` gives an input its name, value and onChange. */
export function useFields<T extends Record<string, string>>(initial: T) {
  const [values, setValues] = useState<T>(initial);

  const set = useCallback((name: keyof T, value: string) => setValues((prev) => ({ ...prev, [name]: value })), []);

  const bind: BindField<keyof T & string> = (name) => ({
    name,
    value: values[name],
    onChange: (event) => set(name, event.target.value),
  });

  const reset = useCallback(() => setValues(initial), [initial]);

  return { values, set, bind, reset };
}
