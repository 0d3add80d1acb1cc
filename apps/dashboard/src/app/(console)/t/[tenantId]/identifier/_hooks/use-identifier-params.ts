'use client';

import { parseAsInteger, parseAsString, useQueryStates } from 'nuqs';

/**
 * The identifier page's policy, identifier and the cost its "next check" is answered for, kept in
 * the URL (`?policy=&identifier=&cost=`): the log, the overview and others link to it.
 */
export const identifierParsers = {
  policy: parseAsString,
  identifier: parseAsString.withDefault(''),
  cost: parseAsInteger.withDefault(1),
};

export function useIdentifierParams() {
  return useQueryStates(identifierParsers);
}
