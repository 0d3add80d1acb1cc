'use client';

import { parseAsString, parseAsStringLiteral, useQueryStates } from 'nuqs';

export const TENANT_STATUSES = ['ACTIVE', 'SUSPENDED'] as const;

/** The tenant list's filters and page, kept in the URL: `?search=&status=&plan=&after=`. */
export const tenantFilterParsers = {
  search: parseAsString.withDefault(''),
  status: parseAsStringLiteral(TENANT_STATUSES),
  plan: parseAsString,
  after: parseAsString,
};

export function useTenantFilters() {
  const [filters, setFilters] = useQueryStates(tenantFilterParsers);
  /** A new filter starts from the first page. */
  const setFilter = (change: Partial<Omit<typeof filters, 'after'>>) =>
    void setFilters({ ...change, after: null });
  return { filters, setFilter, setAfter: (after: string | null) => void setFilters({ after }) };
}
