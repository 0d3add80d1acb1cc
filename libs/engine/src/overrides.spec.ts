import type { CompiledOverride, CompiledPolicy } from '@sluice/policy';
import { describe, expect, it } from 'vitest';
import { indexOverrides, matchOverride } from './overrides';

const override = (
  id: string,
  match: 'exact' | 'prefix',
  identifier: string,
  expiresAt?: number,
): CompiledOverride => ({
  id,
  match,
  identifier,
  rules: {},
  reason: '',
  ...(expiresAt === undefined ? {} : { expiresAt }),
});

const index = (overrides: CompiledOverride[]) =>
  indexOverrides({ overrides } as unknown as CompiledPolicy);

describe('matchOverride', () => {
  const overrides = index([
    override('p', 'prefix', 'premium_'),
    override('pg', 'prefix', 'premium_gold_'),
    override('pgx', 'prefix', 'premium_gold_x', 1000),
    override('e', 'exact', 'premium_gold_xy'),
    override('e-old', 'exact', 'premium_old', 1000),
    override('star', 'exact', 'a*'),
  ]);
  const id = (identifier: string, now = 0) => matchOverride(overrides, identifier, now)?.id;

  it('prefers an exact match, then the longest prefix', () => {
    expect(id('premium_gold_xy')).toBe('e');
    expect(id('premium_gold_xz')).toBe('pgx');
    expect(id('premium_gold_1')).toBe('pg');
    expect(id('premium_1')).toBe('p');
    expect(id('premium_')).toBe('p');
    expect(id('premium')).toBeUndefined();
    expect(id('a*')).toBe('star');
    expect(id('ab')).toBeUndefined();
  });

  it('skips expired overrides (expiresAt is exclusive) and falls back to the next one', () => {
    expect(id('premium_gold_xz', 999)).toBe('pgx');
    expect(id('premium_gold_xz', 1000)).toBe('pg');
    expect(id('premium_old', 999)).toBe('e-old');
    expect(id('premium_old', 1000)).toBe('p');
  });

  it('matches nothing without overrides', () => {
    expect(matchOverride(index([]), 'x', 0)).toBeUndefined();
  });
});
