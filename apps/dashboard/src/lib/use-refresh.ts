'use client';

import { useEffect } from 'react';

/** Asks urql for a fresh answer: live views read again what the cache would answer from. */
export const NETWORK_ONLY = { requestPolicy: 'network-only' as const };

/** Runs a query again every `everyMs` (network only) while it is set. */
export function useRefresh(
  reexecute: (context: typeof NETWORK_ONLY) => void,
  everyMs: number | undefined,
): void {
  useEffect(() => {
    if (everyMs === undefined) return;
    const timer = setInterval(() => reexecute(NETWORK_ONLY), everyMs);
    return () => clearInterval(timer);
  }, [reexecute, everyMs]);
}
