'use client';

import { parseAsString, parseAsStringLiteral, useQueryStates } from 'nuqs';

export const ENDPOINT_STATES = ['enabled', 'disabled'] as const;

/**
 * The endpoint list's filters, kept in the URL: `?search=&state=`. The API answers a tenant's
 * endpoints whole (at most 50), so they are filtered here.
 */
export function useEndpointFilters() {
  const [filters, setFilters] = useQueryStates({
    search: parseAsString.withDefault(''),
    state: parseAsStringLiteral(ENDPOINT_STATES),
  });
  return { filters, setFilter: (change: Partial<typeof filters>) => void setFilters(change) };
}

/** The endpoints matching the filters: `search` in the name or the URL, any case. */
export function filterEndpoints<T extends { name: string; url: string; enabled: boolean }>(
  endpoints: readonly T[],
  filters: { search: string; state: (typeof ENDPOINT_STATES)[number] | null },
): T[] {
  const text = filters.search.trim().toLowerCase();
  return endpoints.filter(
    (endpoint) =>
      (!text ||
        endpoint.name.toLowerCase().includes(text) ||
        endpoint.url.toLowerCase().includes(text)) &&
      (filters.state === null || endpoint.enabled === (filters.state === 'enabled')),
  );
}
