'use client';

import { useSubscription } from 'urql';
import type { LiveUsageSubscription } from '@/generated/gql/graphql';
import { LiveUsageDocument } from '../_components/documents';
import { mergeSeconds, type SecondSeries } from '../_components/usage-series';

type Snapshot = LiveUsageSubscription['usageUpdated']['policies'][number];

/** A published policy as the overview holds it: its last minute and its seconds so far. */
export interface LivePolicy {
  policy: string;
  lastMinute: Snapshot['lastMinute'];
  /** Every second received since the page opened (the newest 15 minutes). */
  seconds: SecondSeries;
}

export interface LiveUsage {
  /** When the newest snapshot was taken. */
  at: string;
  /** The control plane's clock less this browser's (ms), at that snapshot. */
  clockOffset: number;
  /** By name, in the API's order. */
  policies: LivePolicy[];
}

/** Folds a snapshot into what the page holds: a policy the snapshot lacks is unpublished. */
function fold(held: LiveUsage | undefined, event: LiveUsageSubscription): LiveUsage {
  const update = event.usageUpdated;
  const before = new Map(held?.policies.map((p) => [p.policy, p.seconds]));
  return {
    at: update.at,
    clockOffset: Date.parse(update.at) - Date.now(),
    policies: update.policies.map((snapshot) => ({
      policy: snapshot.policy,
      lastMinute: snapshot.lastMinute,
      seconds: mergeSeconds(before.get(snapshot.policy) ?? new Map(), snapshot.seconds),
    })),
  };
}

/**
 * The tenant's live usage: one subscription for all its policies (the control plane reads them
 * once per second for every viewer of the tenant), paused on request. What was received is kept
 * while paused; the error that ended the stream (a removed member's FORBIDDEN) is returned.
 */
export function useLiveUsage(tenantId: string, paused: boolean) {
  const [{ data, error }] = useSubscription(
    { query: LiveUsageDocument, variables: { tenantId }, pause: paused },
    fold,
  );
  return { live: data, error };
}
