'use client';

import { parseAsString, useQueryStates } from 'nuqs';

/** The plan list's search and page, kept in the URL: `?search=&after=`. */
export const planFilterParsers = {
  search: parseAsString.withDefault(''),
  after: parseAsString,
};

export function usePlanFilters() {
  const [filters, setFilters] = useQueryStates(planFilterParsers);
  return {
    filters,
    /** A new search starts from the first page. */
    setSearch: (search: string) => void setFilters({ search, after: null }),
    setAfter: (after: string | null) => void setFilters({ after }),
  };
}
