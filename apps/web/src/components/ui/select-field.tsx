import { useId, type SelectHTMLAttributes } from 'react';

export interface SelectOption {
  value: string;
  label: string;
}

export interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> {
  label: string;
  options: readonly SelectOption[];
  /** The first, empty choice. */
  placeholder?: string;
  /** Marks the field as required for the eye without letting the browser block our own message. */
  markRequired?: boolean;
}

export function SelectField({
  label,
  options,
  placeholder,
  markRequired,
  className,
  ...selectProps
}: SelectFieldProps) {
  const id = useId();
  return (
    <div className={['field', className].filter(Boolean).join(' ')}>
      <div className="field-label">
        <label htmlFor={id}>{label}</label>
        {(markRequired || selectProps.required) && (
          <span className="field-required" aria-hidden="true">
            *
          </span>
        )}
      </div>
      <select id={id} {...selectProps}>
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

export const toOptions = (values: readonly string[]): SelectOption[] =>
  values.map((value) => ({ value, label: value }));
