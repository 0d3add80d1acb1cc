'use client';

import { useSubscription } from 'urql';
import type { LiveUsageSubscription } from '@/generated/gql/graphql';
import { LiveUsageDocument } from '../_components/documents';
import {
  CARD_SECONDS,
  LIVE_SECONDS,
  mergeSeconds,
  type SecondSeries,
} from '../_components/usage-series';

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

/**
 * Folds a snapshot into what the page holds: a policy the snapshot lacks is unpublished. The
 * charted policy (`charted`, else the first) keeps 15 minutes of seconds, the others their
 * card's minute, so that a page open for hours with many policies holds a bounded amount.
 */
function fold(
  held: LiveUsage | undefined,
  event: LiveUsageSubscription,
  charted: string | null,
): LiveUsage {
  const update = event.usageUpdated;
  const before = new Map(held?.policies.map((p) => [p.policy, p.seconds]));
  const chart = update.policies.some((p) => p.policy === charted)
    ? charted
    : update.policies[0]?.policy;
  return {
    at: update.at,
    clockOffset: Date.parse(update.at) - Date.now(),
    policies: update.policies.map((snapshot) => ({
      policy: snapshot.policy,
      lastMinute: snapshot.lastMinute,
      seconds: mergeSeconds(
        before.get(snapshot.policy) ?? new Map(),
        snapshot.seconds,
        snapshot.policy === chart ? LIVE_SECONDS : CARD_SECONDS,
      ),
    })),
  };
}

/**
 * The tenant's live usage: one subscription for all its policies (the control plane reads them
 * once per second for every viewer of the tenant), paused on request; `charted` is the policy
 * whose 15 minutes the page keeps (the URL's, if published). What was received is kept
 * while paused; the error that ended the stream (a removed member's FORBIDDEN) is returned.
 */
export function useLiveUsage(tenantId: string, paused: boolean, charted: string | null) {
  const [{ data, error }] = useSubscription(
    { query: LiveUsageDocument, variables: { tenantId }, pause: paused },
    (held: LiveUsage | undefined, event: LiveUsageSubscription) => fold(held, event, charted),
  );
  return { live: data, error };
}
