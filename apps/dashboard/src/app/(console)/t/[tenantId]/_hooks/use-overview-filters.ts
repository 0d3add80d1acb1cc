'use client';

import { parseAsString, parseAsStringLiteral, useQueryStates } from 'nuqs';
import { RANGES } from '../_components/usage-series';

/** How the top identifiers are ranked: by what they spent, or by their denials. */
export const TOP_BY = ['cost', 'denied'] as const;

/**
 * The overview's chart and top identifiers, kept in the URL: `?policy=&range=&top=` (default:
 * the first policy, 15 min, the heaviest).
 */
export const overviewFilterParsers = {
  policy: parseAsString,
  range: parseAsStringLiteral(RANGES).withDefault('15m'),
  top: parseAsStringLiteral(TOP_BY).withDefault('cost'),
};

export function useOverviewFilters() {
  return useQueryStates(overviewFilterParsers);
}
