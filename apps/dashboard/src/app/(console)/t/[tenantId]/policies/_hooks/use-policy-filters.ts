'use client';

import { parseAsString, parseAsStringLiteral, useQueryStates } from 'nuqs';

export const POLICY_ORIGINS = ['plan', 'own'] as const;
export type PolicyOrigin = (typeof POLICY_ORIGINS)[number];

/**
 * The policy list's filters, kept in the URL: `?search=&origin=`. The API answers a tenant's
 * policies whole, so they are filtered here.
 */
export function usePolicyFilters() {
  const [filters, setFilters] = useQueryStates({
    search: parseAsString.withDefault(''),
    origin: parseAsStringLiteral(POLICY_ORIGINS),
  });
  return { filters, setFilter: (change: Partial<typeof filters>) => void setFilters(change) };
}

/** The policies matching the filters: `search` in the name, any case; from the plan or own. */
export function filterPolicies<T extends { name: string; source: 'PLAN' | 'TENANT' }>(
  policies: readonly T[],
  filters: { search: string; origin: PolicyOrigin | null },
): T[] {
  const text = filters.search.trim().toLowerCase();
  return policies.filter(
    (policy) =>
      (!text || policy.name.toLowerCase().includes(text)) &&
      (filters.origin === null || (policy.source === 'PLAN') === (filters.origin === 'plan')),
  );
}
