'use client';

import { parseAsString, parseAsStringLiteral, useQueryStates } from 'nuqs';

export const KEY_STATUSES = ['ACTIVE', 'EXPIRED', 'REVOKED'] as const;

/** The key list's filters and page, kept in the URL: `?search=&status=&after=`. */
export const keyFilterParsers = {
  search: parseAsString.withDefault(''),
  status: parseAsStringLiteral(KEY_STATUSES),
  after: parseAsString,
};

export function useKeyFilters() {
  const [filters, setFilters] = useQueryStates(keyFilterParsers);
  /** A new filter starts from the first page. */
  const setFilter = (change: Partial<Omit<typeof filters, 'after'>>) =>
    void setFilters({ ...change, after: null });
  return { filters, setFilter, setAfter: (after: string | null) => void setFilters({ after }) };
}
