'use client';

import { useEffect, useMemo, useState } from 'react';
import { useQuery } from 'urql';
import { NETWORK_ONLY, useRefresh } from '@/lib/use-refresh';
import { ShadowTrialTotalsDocument } from '../_components/documents';

const REFRESH_MS = 5_000;
const minuteNow = () => Math.floor(Date.now() / 60_000);

/**
 * Each policy's denials by rule and would-be denials by candidate rule over the last 15 minutes
 * (14 whole ones and the running one), read again every 5 s while `active` (a trial runs).
 */
export function useTrialTotals(tenantId: string, active: boolean) {
  const [minute, setMinute] = useState(minuteNow);
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setMinute(minuteNow()), REFRESH_MS);
    return () => clearInterval(timer);
  }, [active]);
  const variables = useMemo(
    () => ({
      tenantId,
      from: new Date((minute - 14) * 60_000).toISOString(),
      to: new Date((minute + 1) * 60_000).toISOString(),
    }),
    [tenantId, minute],
  );
  const [{ data, error }, reexecute] = useQuery({
    query: ShadowTrialTotalsDocument,
    variables,
    pause: !active,
    context: NETWORK_ONLY,
  });
  useRefresh(reexecute, active ? REFRESH_MS : undefined);
  return {
    totalsOf: (policy: string) => data?.usageTotals.find((t) => t.policy === policy),
    error,
  };
}
