import { describe, expect, it } from 'vitest';
import { countPerBucket, mostInAnyWindow } from './admission-stats';

describe('mostInAnyWindow', () => {
  it('counts the densest half-open span', () => {
    expect(mostInAnyWindow([], 10)).toBe(0);
    expect(mostInAnyWindow([0, 5, 9.9, 10, 19, 25], 10)).toBe(3);
    // [10, 20) holds 10 and 19 only: 0..9.9 left at 10
    expect(mostInAnyWindow([0, 10, 19], 10)).toBe(2);
    expect(mostInAnyWindow([5, 5, 5, 5], 1)).toBe(4);
  });
});

describe('countPerBucket', () => {
  it('counts times per bucket over the span, leaving out those outside it', () => {
    expect(countPerBucket([0, 1, 9.99, 10, 29, 30, -1], 10, 30)).toEqual([3, 1, 1]);
  });
});
