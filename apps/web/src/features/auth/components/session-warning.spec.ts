import { describe, expect, it } from '@jest/globals';
import { formatRemaining } from './session-warning';

describe('the countdown of the session warning', () => {
  it('shows minutes and seconds left, rounding down to the second', () => {
    expect(formatRemaining(120_000)).toBe('2:00');
    expect(formatRemaining(119_999)).toBe('1:59');
    expect(formatRemaining(65_000)).toBe('1:05');
    expect(formatRemaining(999)).toBe('0:00');
  });

  it('never shows a negative time', () => {
    expect(formatRemaining(-5_000)).toBe('0:00');
  });
});
