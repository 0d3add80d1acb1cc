'use client';

import { parseAsString, parseAsStringLiteral, useQueryStates } from 'nuqs';

export const USER_VIEWS = ['users', 'operators', 'invitations'] as const;
export type UserView = (typeof USER_VIEWS)[number];

/**
 * The page's tab, the user search and the shown list's page, kept in the URL:
 * `?view=&search=&after=`. One cursor serves the tab shown: changing tab starts at its first page.
 */
export const userFilterParsers = {
  view: parseAsStringLiteral(USER_VIEWS).withDefault('users'),
  search: parseAsString.withDefault(''),
  after: parseAsString,
};

export function useUserFilters() {
  const [filters, setFilters] = useQueryStates(userFilterParsers);
  return {
    filters,
    setView: (view: UserView) => void setFilters({ view, after: null }),
    /** A new search starts from the first page. */
    setSearch: (search: string) => void setFilters({ search, after: null }),
    setAfter: (after: string | null) => void setFilters({ after }),
  };
}
