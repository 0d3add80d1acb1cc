import { describe, expect, it } from 'vitest';
import { filterPolicies, type PolicyOrigin } from './use-policy-filters';

describe('filterPolicies', () => {
  const policies = [
    { name: 'api', source: 'PLAN' as const },
    { name: 'llm-tokens', source: 'PLAN' as const },
    { name: 'reports', source: 'TENANT' as const },
  ];

  it('finds by name in any case, and by origin', () => {
    const names = (search: string, origin: PolicyOrigin | null = null) =>
      filterPolicies(policies, { search, origin }).map((p) => p.name);
    expect(names('')).toEqual(['api', 'llm-tokens', 'reports']);
    expect(names(' TOKENS ')).toEqual(['llm-tokens']);
    expect(names('', 'own')).toEqual(['reports']);
    expect(names('', 'plan')).toEqual(['api', 'llm-tokens']);
    expect(names('api', 'own')).toEqual([]);
  });
});
