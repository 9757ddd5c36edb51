import { describe, expect, it } from '@jest/globals';
import { sparklinePoints } from './sparkline';

describe('sparklinePoints', () => {
  it('spans the box from the oldest value on the left to the newest on the right, highest at the top', () => {
    expect(sparklinePoints([0, 500, 1000])).toBe('2.0,22.0 44.0,12.0 86.0,2.0');
  });

  it('draws equal values (a machine that sold nothing) as a flat line across the middle', () => {
    expect(sparklinePoints([0, 0, 0])).toBe('2.0,12.0 44.0,12.0 86.0,12.0');
  });

  it('draws one value as a point and no values as nothing', () => {
    expect(sparklinePoints([700])).toBe('2.0,12.0');
    expect(sparklinePoints([])).toBe('');
  });
});
