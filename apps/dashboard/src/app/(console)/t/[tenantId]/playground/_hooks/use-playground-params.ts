'use client';

import { parseAsString, parseAsStringLiteral, useQueryStates } from 'nuqs';

export const TABS = ['checks', 'compare'] as const;

/**
 * The playground's tab, policy and identifier, kept in the URL (`?tab=&policy=&identifier=`) so a
 * link can open it on a policy, and a reload keeps what was being tried.
 */
export const playgroundParsers = {
  tab: parseAsStringLiteral(TABS).withDefault('checks'),
  policy: parseAsString,
  identifier: parseAsString.withDefault('test-user'),
};

export function usePlaygroundParams() {
  return useQueryStates(playgroundParsers);
}
