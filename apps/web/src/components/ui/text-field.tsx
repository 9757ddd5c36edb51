import { useId, type InputHTMLAttributes } from 'react';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  hint?: string;
}

/** A labelled input: the label is tied to the input, so assistive technology and tests find it by name. */
export function TextField({ label, hint, className, ...inputProps }: TextFieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div className={['field', className].filter(Boolean).join(' ')}>
      <div className="field-label">
        <label htmlFor={id}>{label}</label>
        {inputProps.required && (
          <span className="field-required" aria-hidden="true">
            *
          </span>
        )}
      </div>
      <input id={id} aria-describedby={hintId} {...inputProps} />
      {hint && (
        <small id={hintId} className="field-hint">
          {hint}
        </small>
      )}
    </div>
  );
}
