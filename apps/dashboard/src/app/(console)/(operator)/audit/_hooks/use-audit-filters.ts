'use client';

import { parseAsIsoDateTime, parseAsString, useQueryStates, type inferParserType } from 'nuqs';

/**
 * The audit log's filters and page, kept in the URL:
 * `?action=&actor=&entityType=&entityId=&tenant=&from=&to=&after=` (times as ISO instants, so a
 * shared link means the same range in any time zone).
 */
export const auditFilterParsers = {
  action: parseAsString.withDefault(''),
  actor: parseAsString,
  entityType: parseAsString,
  entityId: parseAsString.withDefault(''),
  tenant: parseAsString,
  from: parseAsIsoDateTime,
  to: parseAsIsoDateTime,
  after: parseAsString,
};

export type AuditFilters = inferParserType<typeof auditFilterParsers>;
export type AuditFilterChange = Partial<Omit<AuditFilters, 'after'>>;

export function useAuditFilters() {
  const [filters, setFilters] = useQueryStates(auditFilterParsers);
  /** A new filter starts from the first page. */
  const setFilter = (change: AuditFilterChange) => void setFilters({ ...change, after: null });
  const clear = () =>
    void setFilters({
      action: null,
      actor: null,
      entityType: null,
      entityId: null,
      tenant: null,
      from: null,
      to: null,
      after: null,
    });
  const filtered = Boolean(
    filters.action ||
    filters.actor ||
    filters.entityType ||
    filters.entityId ||
    filters.tenant ||
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
