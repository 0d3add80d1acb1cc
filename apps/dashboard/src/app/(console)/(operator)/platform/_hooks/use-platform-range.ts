'use client';

import { parseAsStringLiteral, useQueryState } from 'nuqs';

/** The traffic chart's ranges, as the API names them. */
export const PLATFORM_RANGES = ['HOUR', 'DAY', 'WEEK'] as const;
export type PlatformRange = (typeof PLATFORM_RANGES)[number];

export const RANGE_LABELS: Record<PlatformRange, string> = {
  HOUR: 'Hour',
  DAY: 'Day',
  WEEK: 'Week',
};

/** The traffic range, kept in the URL: `?range=` (default the last hour). */
export function usePlatformRange() {
  return useQueryState('range', parseAsStringLiteral(PLATFORM_RANGES).withDefault('HOUR'));
}
