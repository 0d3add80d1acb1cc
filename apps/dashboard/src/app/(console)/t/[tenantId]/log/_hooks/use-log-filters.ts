'use client';

import {
  parseAsBoolean,
  parseAsIsoDateTime,
  parseAsString,
  parseAsStringLiteral,
  useQueryStates,
  type inferParserType,
} from 'nuqs';

export const OUTCOMES = ['ALLOWED', 'DENIED'] as const;
export const MATCHES = ['exact', 'prefix'] as const;

/**
 * The request log's policy, filters and page, kept in the URL so a filtered view can be shared:
 * `?policy=&identifier=&match=prefix&outcome=&rule=&reason=&from=&to=&after=&live=true` (times as
 * ISO instants). `live` tails the newest entries.
 */
export const logFilterParsers = {
  policy: parseAsString,
  identifier: parseAsString.withDefault(''),
  match: parseAsStringLiteral(MATCHES).withDefault('exact'),
  outcome: parseAsStringLiteral(OUTCOMES),
  rule: parseAsString,
  reason: parseAsString,
  from: parseAsIsoDateTime,
  to: parseAsIsoDateTime,
  after: parseAsString,
  live: parseAsBoolean.withDefault(false),
};

export type LogFilters = inferParserType<typeof logFilterParsers>;
export type LogFilterChange = Partial<Omit<LogFilters, 'after'>>;

export function useLogFilters() {
  const [filters, setFilters] = useQueryStates(logFilterParsers);
  /** A new filter starts from the newest entries. */
  const setFilter = (change: LogFilterChange) => void setFilters({ ...change, after: null });
  const clear = () =>
    void setFilters({
      identifier: null,
      match: null,
      outcome: null,
      rule: null,
      reason: null,
      from: null,
      to: null,
      after: null,
    });
  const filtered = Boolean(
    filters.identifier ||
    filters.outcome ||
    filters.rule ||
    filters.reason ||
    filters.from ||
    filters.to,
  );
  return {
    filters,
    filtered,
    setFilter,
    clear,
    setAfter: (after: string | null) => void setFilters({ after }),
  };
}
