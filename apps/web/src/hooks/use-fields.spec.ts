import { describe, expect, it } from '@jest/globals';
import { act, renderHook } from '@testing-library/react';
import { ApiError } from '@/lib/api-client';
import { useFields } from './use-fields';

const refused = (fields: { path: string; message: string }[]) =>
  new ApiError(400, { statusCode: 400, code: 'ValidationFailed', message: 'x', fields }, '');

const change = (value: string) => ({ target: { value } }) as never;

describe('useFields', () => {
  it('binds name, value and onChange, with no error until the server refuses a field', () => {
    const { result } = renderHook(() => useFields({ amount: '', note: '' }));
    expect(Object.keys(result.current.bind('amount')).sort()).toEqual(['name', 'onChange', 'value']);
    act(() => result.current.bind('amount').onChange(change('12')));
    expect(result.current.values).toEqual({ amount: '12', note: '' });
  });

  it('puts the server’s field errors beside this form’s fields in the form’s words, and an edit clears one', () => {
    const { result } = renderHook(() => useFields({ amount: '', note: '' }));
    let placed: string[] = [];
    act(() => {
      placed = result.current.showServerErrors(
        refused([
          { path: 'amount', message: 'must be greater than 0' },
          { path: 'amount', message: 'a second complaint' },
          { path: 'userId', message: 'Invalid UUID' },
        ]),
        (name, serverText) => `${name} is wrong (${serverText})`,
      );
    });
    expect(placed).toEqual(['amount']);
    expect(result.current.bind('amount').error).toBe('amount is wrong (must be greater than 0)');
    expect(result.current.bind('note').error).toBeUndefined();

    act(() => result.current.bind('amount').onChange(change('5')));
    expect(result.current.bind('amount').error).toBeUndefined();
  });

  it('places nothing for a refusal without fields, and reset clears what was placed', () => {
    const { result } = renderHook(() => useFields({ amount: '' }));
    act(() => {
      expect(result.current.showServerErrors(new Error('offline'), () => 'never')).toEqual([]);
      result.current.showServerErrors(refused([{ path: 'amount', message: 'bad' }]), () => 'Enter an amount.');
    });
    expect(result.current.bind('amount').error).toBe('Enter an amount.');
    act(() => result.current.reset());
    expect(result.current.errors).toEqual({});
  });
});
