'use client';

import { parseAsString, useQueryStates } from 'nuqs';

/**
 * The playground's policy and identifier, kept in the URL (`?policy=&identifier=`) so a link can
 * open it on a policy, and a reload keeps what was being tried.
 */
export const playgroundParsers = {
  policy: parseAsString,
  identifier: parseAsString.withDefault('test-user'),
};

export function usePlaygroundParams() {
  return useQueryStates(playgroundParsers);
}
