import { describe, expect, it } from '@jest/globals';
import { monthPartition, partitionMonth, retentionCutoff } from './sale-partition.repository.js';

/** docs/partitions.md: month partitions are UTC calendar months; the retention drops whole ones. */
describe('sales month partitions', () => {
  it('names and bounds the UTC month of an instant, and months after it', () => {
    expect(monthPartition(new Date('2026-11-28T23:59:59.999Z'))).toEqual({
      name: 'sales_2026_11',
      from: new Date('2026-11-01T00:00:00Z'),
      to: new Date('2026-12-01T00:00:00Z'),
    });
    expect(monthPartition(new Date('2026-11-30T21:00:00Z'), 3).name).toBe('sales_2027_02');
    expect(monthPartition(new Date('2026-01-31T12:00:00Z'), -2).name).toBe('sales_2025_11');
  });

  it('reads a partition name back, and nothing else', () => {
    expect(partitionMonth('sales_2027_02')?.from).toEqual(new Date('2027-02-01T00:00:00Z'));
    expect(partitionMonth('sales_before')).toBeNull();
    expect(partitionMonth('sales_2027_2')).toBeNull();
  });

  it.each([
    ['2026-11-28T10:00:00Z', 3, '2026-08-01T00:00:00Z'],
    ['2026-03-31T10:00:00Z', 1, '2026-02-01T00:00:00Z'],
    ['2026-01-01T00:00:00Z', 12, '2025-01-01T00:00:00Z'],
  ])('keeps, on %s with %i months, everything from %s', (now, months, cutoff) => {
    expect(retentionCutoff(new Date(now), months)).toEqual(new Date(cutoff));
  });
});
