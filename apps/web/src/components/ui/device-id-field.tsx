import { SelectField, toOptions } from './select-field';
import { TextField } from './text-field';

interface DeviceIdFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** The ids to choose from; when the caller may not list them (undefined), the id is typed instead. */
  choices: readonly string[] | undefined;
  placeholder: string;
}

/**
 * A device id choice. Not `required` for the browser: the forms show their own message
 * ('Please select an ESP32 ID') instead of the browser's tooltip.
 */
export function DeviceIdField({ label, value, onChange, choices, placeholder }: DeviceIdFieldProps) {
  if (choices === undefined) {
    return (
      <TextField
        label={label}
        value={value}
        placeholder={placeholder}
        autoComplete="off"
        onChange={(event) => onChange(event.target.value)}
      />
    );
  }
  return (
    <SelectField
      label={label}
      markRequired
      value={value}
      placeholder={placeholder}
      options={toOptions(choices)}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}
