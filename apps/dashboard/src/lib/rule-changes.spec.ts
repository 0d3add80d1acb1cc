import { describe, expect, it } from 'vitest';
import { describeRuleChanges } from './rule-changes';

describe('describeRuleChanges', () => {
  it('reads as a sentence per rule', () => {
    expect(
      describeRuleChanges([
        { name: 'burst', capacity: 40, refillPerSecond: 2.5 },
        { name: 'daily', windowMs: 7_200_000 },
      ]),
    ).toEqual(['burst: capacity 40, refill 2.5/s', 'daily: window 2 hours']);
  });
});
