'use client';

import { useMemo } from 'react';
import { useQuery } from 'urql';
import { NETWORK_ONLY } from '@/lib/use-refresh';
import { UsageChartDocument } from '../_components/documents';
import {
  bucketLabel,
  bucketsBySecond,
  LIVE_SECONDS,
  newestSecond,
  combineSeconds,
  RANGE_SPECS,
  secondsUpTo,
  sumCounts,
  type Range,
  type SecondSeries,
  type UsageCounts,
} from '../_components/usage-series';

/** A point of the chart: its axis label and the four outcomes. */
export type ChartRow = UsageCounts & { label: string };

/**
 * Seconds the live range reads back from its anchor: the API keeps 15 minutes of seconds less a
 * few, and refuses an older start; the chart's oldest seconds before the page opened read 0.
 */
const LIVE_READ_SECONDS = LIVE_SECONDS - 10;

/** The range's bounds up to `anchor` (ms): whole seconds for the live range. */
function rangeBounds(range: Range, anchor: number): { from: Date; to: Date } {
  const spec = RANGE_SPECS[range];
  if (!spec.live) return { from: new Date(anchor - spec.seconds * 1000), to: new Date(anchor) };
  const second = Math.floor(anchor / 1000);
  return { from: new Date((second - LIVE_READ_SECONDS) * 1000), to: new Date((second + 1) * 1000) };
}

/**
 * One policy's chart over `range`, read up to `anchor` (ms, on the control plane's clock: the
 * live range's start must be one it still keeps; the page moves the anchor when the range, the
 * policy or the live toggle changes; undefined waits). The live range combines the series read at the anchor
 * with the subscription's seconds, so it moves each second and shows what came before the page
 * (or while it was paused).
 */
export function useUsageChart(args: {
  tenantId: string;
  policy: string | undefined;
  range: Range;
  anchor: number | undefined;
  liveSeconds: SecondSeries | undefined;
}) {
  const { tenantId, policy, range, anchor, liveSeconds } = args;
  const spec = RANGE_SPECS[range];
  const variables = useMemo(() => {
    const { from, to } = rangeBounds(range, anchor ?? 0);
    const bounds = { from: from.toISOString(), to: to.toISOString() };
    return { input: { tenantId, policy: policy ?? '', ...bounds, resolution: spec.resolution } };
  }, [tenantId, policy, anchor, range, spec]);
  const [{ data, fetching, error }] = useQuery({
    query: UsageChartDocument,
    variables,
    pause: policy === undefined || anchor === undefined,
    context: NETWORK_ONLY,
  });

  const rows = useMemo((): ChartRow[] | undefined => {
    const points = data?.usageSeries.points;
    if (!points) return undefined;
    if (!spec.live) {
      return [...bucketsBySecond(points)].map(([second, counts]) => ({
        label: bucketLabel(second, spec.resolution),
        ...counts,
      }));
    }
    const seconds = combineSeconds(bucketsBySecond(points), liveSeconds ?? new Map());
    const end = newestSecond(seconds) ?? Math.floor((anchor ?? 0) / 1000);
    return secondsUpTo(seconds, end, LIVE_SECONDS).map(({ second, ...counts }) => ({
      label: bucketLabel(second, 'SECOND'),
      ...counts,
    }));
  }, [data, spec, liveSeconds, anchor]);

  return { rows, totals: rows && sumCounts(rows), fetching, error };
}
