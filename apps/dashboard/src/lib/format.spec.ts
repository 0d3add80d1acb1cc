import { describe, expect, it } from 'vitest';
import { formatWait } from './format';

describe('formatWait', () => {
  it('read waits as a person does', () => {
    expect(formatWait(-1)).toBe('never');
    expect(formatWait(0)).toBe('0 ms');
    expect(formatWait(250)).toBe('250 ms');
    expect(formatWait(1500)).toBe('1.5 s');
    expect(formatWait(45_000)).toBe('45 s');
    expect(formatWait(90_000)).toBe('1.5 min');
  });
});
