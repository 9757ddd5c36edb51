import { describe, expect, it } from '@jest/globals';
import { accountStepProblem } from './registration';
import { homePathForRole } from './role-home';

describe('the account step of a registration', () => {
  it('asks for matching passwords before anything else', () => {
    expect(accountStepProblem({ password: 'secret-1', confirmPassword: 'secret-2', esp32Id: '' })).toBe(
      'Passwords do not match',
    );
  });

  it('asks for a machine once the passwords match', () => {
    expect(accountStepProblem({ password: 'secret-1', confirmPassword: 'secret-1', esp32Id: '' })).toBe(
      'Please select an ESP32 ID',
    );
  });

  it('lets a complete step through', () => {
    expect(accountStepProblem({ password: 'secret-1', confirmPassword: 'secret-1', esp32Id: 'ESP1' })).toBeNull();
  });
});

describe('where a login lands', () => {
  it('sends each role to its own dashboard', () => {
    expect(homePathForRole('admin')).toBe('/maindashboard');
    expect(homePathForRole('manager')).toBe('/manager/dashboard');
    expect(homePathForRole('attendant')).toBe('/att/manager/dashboard');
  });

  it('sends any other role, or none, back to the login page', () => {
    expect(homePathForRole('superuser')).toBe('/login');
    expect(homePathForRole(null)).toBe('/login');
    expect(homePathForRole(undefined)).toBe('/login');
  });
});
