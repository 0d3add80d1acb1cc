import { describe, expect, it } from 'vitest';
import { describeBound } from './bounds';

describe('describeBound', () => {
  it('says the range tenants may choose in, in the parameter’s terms', () => {
    expect(describeBound({ param: 'capacity', min: 1, max: 50 })).toBe('capacity 1 to 50');
    expect(describeBound({ param: 'windowMs', min: null, max: 3_600_000 })).toBe(
      'window at most 1 hour',
    );
    expect(describeBound({ param: 'refillPerSecond', min: 0.5 })).toBe('refill at least 0.5/s');
    expect(describeBound({ param: 'limit' })).toBe('limit, any valid value');
  });
});
