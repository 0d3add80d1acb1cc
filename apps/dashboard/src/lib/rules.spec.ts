import { describe, expect, it } from 'vitest';
import { boundsHint, formatDuration } from './rules';

describe('boundsHint', () => {
  it('says the plan’s range, or nothing', () => {
    expect(boundsHint({ min: 1, max: 50 })).toBe('The plan allows 1 to 50.');
    expect(boundsHint({ min: null, max: 100 })).toBe('The plan allows at most 100.');
    expect(boundsHint({ min: null, max: null })).toBeNull();
  });
});

describe('formatDuration', () => {
  it('uses the largest unit that divides the duration', () => {
    expect(formatDuration(86_400_000)).toBe('1 day');
    expect(formatDuration(90_000)).toBe('90 seconds');
    expect(formatDuration(1500)).toBe('1,500 ms');
  });
});
