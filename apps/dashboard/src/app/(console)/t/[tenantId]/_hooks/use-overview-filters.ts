'use client';

import { parseAsString, parseAsStringLiteral, useQueryStates } from 'nuqs';
import { RANGES } from '../_components/usage-series';

/** The overview's chart, kept in the URL: `?policy=&range=` (default: the first policy, 15 min). */
export const overviewFilterParsers = {
  policy: parseAsString,
  range: parseAsStringLiteral(RANGES).withDefault('15m'),
};

export function useOverviewFilters() {
  return useQueryStates(overviewFilterParsers);
}
