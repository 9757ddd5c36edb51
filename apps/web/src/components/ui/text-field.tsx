import { useId, type InputHTMLAttributes } from 'react';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  hint?: string;
  /** What is wrong with the value, in plain words, shown under the field and announced. */
  error?: string | null;
}

/** A labelled input: the label is tied to the input, so assistive technology and tests find it by name. */
export function TextField({ label, hint, error, className, ...inputProps }: TextFieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={['field', error ? 'field-invalid' : null, className].filter(Boolean).join(' ')}>
      <div className="field-label">
        <label htmlFor={id}>{label}</label>
        {inputProps.required && (
          <span className="field-required" aria-hidden="true">
            *
          </span>
        )}
      </div>
      <input id={id} aria-describedby={describedBy} aria-invalid={error ? true : undefined} {...inputProps} />
      {hint && (
        <small id={hintId} className="field-hint">
          {hint}
        </small>
      )}
      {error && (
        <small id={errorId} className="field-error" role="alert">
          {error}
        </small>
      )}
    </div>
  );
}
