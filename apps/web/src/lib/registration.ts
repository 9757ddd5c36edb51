/** What both registration wizards (a user by the admin, an attendant by a manager) ask for. */
export interface RegistrationFieldValues {
  firstName: string;
  lastName: string;
  username: string;
  email: string;
  phoneNumber: string;
  location: string;
  esp32Id: string;
  machine_location: string;
  password: string;
  /** A form field only, never sent. */
  confirmPassword: string;
}

export const EMPTY_REGISTRATION_FIELDS: RegistrationFieldValues = {
  firstName: '',
  lastName: '',
  username: '',
  email: '',
  phoneNumber: '',
  location: '',
  esp32Id: '',
  machine_location: '',
  password: '',
  confirmPassword: '',
};

/** Step 2 of both wizards: passwords first, then the device; null when both hold. */
export function accountStepProblem(fields: Pick<RegistrationFieldValues, 'password' | 'confirmPassword' | 'esp32Id'>) {
  if (fields.password !== fields.confirmPassword) return 'Passwords do not match';
  if (!fields.esp32Id) return 'Please select an ESP32 ID';
  return null;
}
