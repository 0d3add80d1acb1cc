import { describe, expect, it } from 'vitest';
import { formatDuration, formatParam } from './rules';

describe('formatDuration', () => {
  it('uses the largest unit that divides the duration', () => {
    expect(formatDuration(86_400_000)).toBe('1 day');
    expect(formatDuration(90_000)).toBe('90 seconds');
    expect(formatDuration(1500)).toBe('1,500 ms');
  });
});

describe('formatParam', () => {
  it('reads a duration, a rate or a count', () => {
    expect(formatParam('leaseTtlMs', 60_000)).toBe('1 minute');
    expect(formatParam('refillPerSecond', 2.5)).toBe('2.5/s');
    expect(formatParam('capacity', 1_000)).toBe('1,000');
  });
});
