'use client';

import { parseAsBoolean, parseAsString, useQueryStates } from 'nuqs';

/**
 * The override list's filters and page, kept in the URL: `?search=&policy=&expired=true&after=`.
 * Active overrides only unless expired ones are asked for. `?new=<policy>&for=<identifier>` opens
 * the new override's form filled in (the request log links here).
 */
export const overrideFilterParsers = {
  search: parseAsString.withDefault(''),
  policy: parseAsString,
  expired: parseAsBoolean.withDefault(false),
  after: parseAsString,
  new: parseAsString,
  for: parseAsString,
};

export function useOverrideFilters() {
  const [filters, setFilters] = useQueryStates(overrideFilterParsers);
  /** A new filter starts from the first page. */
  const setFilter = (change: Partial<Omit<typeof filters, 'after' | 'new' | 'for'>>) =>
    void setFilters({ ...change, after: null });
  return {
    filters,
    setFilter,
    setAfter: (after: string | null) => void setFilters({ after }),
    /** The form the URL asked for is closed: the URL asks no more. */
    dismissNew: () => void setFilters({ new: null, for: null }),
  };
}
