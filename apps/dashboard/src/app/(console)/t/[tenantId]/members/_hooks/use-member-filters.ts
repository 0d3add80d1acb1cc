'use client';

import { parseAsString, useQueryStates } from 'nuqs';

/**
 * The members page's search (over members and invitations) and each list's page, kept in the
 * URL: `?search=&after=&invitationsAfter=`.
 */
export function useMemberFilters() {
  const [filters, setFilters] = useQueryStates({
    search: parseAsString.withDefault(''),
    after: parseAsString,
    invitationsAfter: parseAsString,
  });
  return {
    filters,
    /** A new search starts both lists from their first page. */
    setSearch: (search: string) => void setFilters({ search, after: null, invitationsAfter: null }),
    setAfter: (after: string | null) => void setFilters({ after }),
    setInvitationsAfter: (invitationsAfter: string | null) => void setFilters({ invitationsAfter }),
  };
}
