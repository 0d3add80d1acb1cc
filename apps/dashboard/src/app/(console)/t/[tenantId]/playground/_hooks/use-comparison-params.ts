'use client';

import { parseAsInteger, parseAsStringLiteral, useQueryStates } from 'nuqs';

export const PATTERNS = ['BOUNDARY_SPIKE', 'STEADY_OVER_LIMIT', 'BURSTS'] as const;

/**
 * The comparison replayed, kept in the URL (`?pattern=&limit=&window=`, the window in seconds) so a
 * replay can be shared: by default 10 per 10 s, a spike around a window edge.
 */
export const comparisonParsers = {
  pattern: parseAsStringLiteral(PATTERNS).withDefault('BOUNDARY_SPIKE'),
  limit: parseAsInteger.withDefault(10),
  window: parseAsInteger.withDefault(10),
};

export function useComparisonParams() {
  return useQueryStates(comparisonParsers);
}
