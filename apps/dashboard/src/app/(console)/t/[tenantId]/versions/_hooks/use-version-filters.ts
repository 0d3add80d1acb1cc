'use client';

import { parseAsInteger, parseAsString, useQueryStates } from 'nuqs';

/**
 * The versions page's state in the URL: the list's page (`after`) and the two versions compared
 * (`from`, `to`), so a comparison can be shared and reloaded.
 */
export const versionFilterParsers = {
  after: parseAsString,
  from: parseAsInteger,
  to: parseAsInteger,
};

export function useVersionFilters() {
  const [filters, setFilters] = useQueryStates(versionFilterParsers);
  return {
    filters,
    setAfter: (after: string | null) => void setFilters({ after }),
    compare: (from: number | null, to: number | null) => void setFilters({ from, to }),
  };
}
