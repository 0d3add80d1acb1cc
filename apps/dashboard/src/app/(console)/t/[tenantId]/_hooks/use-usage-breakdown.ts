'use client';

import { useMemo } from 'react';
import { useQuery } from 'urql';
import { NETWORK_ONLY, useRefresh } from '@/lib/use-refresh';
import { UsageBreakdownDocument } from '../_components/documents';
import { RANGE_SPECS, type Range } from '../_components/usage-series';

/**
 * One policy's totals over the chart's range of whole minutes, up to the end of the minute that
 * starts at `end` (the control plane's clock, ms, a whole minute: the page moves it once a
 * minute, so the cache holds one result a minute). While `refreshMs` is set, read again that
 * often: the running minute's counts grow.
 */
export function useUsageBreakdown(args: {
  tenantId: string;
  policy: string | undefined;
  range: Range;
  end: number | undefined;
  refreshMs: number | undefined;
}) {
  const { tenantId, policy, range, end, refreshMs } = args;
  const variables = useMemo(() => {
    const to = (end ?? 0) + 60_000;
    return {
      tenantId,
      from: new Date(to - RANGE_SPECS[range].seconds * 1000).toISOString(),
      to: new Date(to).toISOString(),
    };
  }, [tenantId, range, end]);
  const [{ data, error }, reexecute] = useQuery({
    query: UsageBreakdownDocument,
    variables,
    pause: end === undefined || policy === undefined,
    context: NETWORK_ONLY,
  });
  useRefresh(reexecute, refreshMs);
  return { totals: data?.usageTotals.find((t) => t.policy === policy), error };
}
