'use client';

import { useMemo } from 'react';
import { useQuery } from 'urql';
import { UsageBreakdownDocument } from '../_components/documents';
import { RANGE_SPECS, type Range } from '../_components/usage-series';

const NETWORK_ONLY = { requestPolicy: 'network-only' as const };

/**
 * One policy's totals over the chart's range up to `end` (the control plane's clock, ms): the
 * range's whole minutes, the one still running included. The page moves `end` with the live
 * feed every few seconds, and each move reads the totals again.
 */
export function useUsageBreakdown(args: {
  tenantId: string;
  policy: string | undefined;
  range: Range;
  end: number | undefined;
}) {
  const { tenantId, policy, range, end } = args;
  const variables = useMemo(() => {
    const last = end ?? 0;
    return {
      tenantId,
      from: new Date(last - RANGE_SPECS[range].seconds * 1000).toISOString(),
      // to the end of the current minute: its counts so far
      to: new Date((Math.floor(last / 60_000) + 1) * 60_000).toISOString(),
    };
  }, [tenantId, range, end]);
  const [{ data, error }] = useQuery({
    query: UsageBreakdownDocument,
    variables,
    pause: end === undefined || policy === undefined,
    context: NETWORK_ONLY,
  });
  return { totals: data?.usageTotals.find((t) => t.policy === policy), error };
}
