'use client';

import { Card, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { EmptyState } from '@/components/query-state';
import { useLiveUsage } from '../_hooks/use-live-usage';
import { useOverviewFilters } from '../_hooks/use-overview-filters';
import { useUsageBreakdown } from '../_hooks/use-usage-breakdown';
import { useUsageChart } from '../_hooks/use-usage-chart';
import { TopIdentifiers } from './top-identifiers';
import { PolicyCards } from './policy-cards';
import { UsageChart } from './usage-chart';
import { RANGE_SPECS, type Range } from './usage-series';
import { WhyDenied } from './why-denied';

/** The live breakdowns are read again this often (ms). */
const BREAKDOWN_REFRESH_MS = 5000;

/** The start of the minute `ms` falls in; undefined stays undefined. */
const minuteOf = (ms: number | undefined) =>
  ms === undefined ? undefined : Math.floor(ms / 60_000) * 60_000;

/**
 * The tenant's traffic: a card per published policy, the chosen policy's chart and why it denied,
 * over the range in the URL; live for the last 15 minutes unless paused.
 */
export function LiveUsage({ tenantId }: { tenantId: string }) {
  const [filters, setFilters] = useOverviewFilters();
  const [live, setLive] = useState(true);
  const { live: usage, error: liveError } = useLiveUsage(tenantId, !live, filters.policy);
  const clockOffset = usage?.clockOffset;
  // the chart's series is read up to this instant of the control plane's clock, known from the
  // first snapshot; moved when what the chart shows changes
  const [anchor, setAnchor] = useState<number>();
  useEffect(() => {
    if (anchor === undefined && clockOffset !== undefined) setAnchor(Date.now() + clockOffset);
  }, [anchor, clockOffset]);
  const reanchor = () => setAnchor(Date.now() + (clockOffset ?? 0));
  const policies = usage?.policies ?? [];
  const policy =
    filters.policy !== null && policies.some((p) => p.policy === filters.policy)
      ? filters.policy
      : policies[0]?.policy;
  const chart = useUsageChart({
    tenantId,
    policy,
    range: filters.range,
    anchor,
    liveSeconds: policies.find((p) => p.policy === policy)?.seconds,
  });
  // the breakdowns follow the live feed's minute, and read it again every few seconds
  const liveRange = RANGE_SPECS[filters.range].live;
  const following = liveRange && usage !== undefined;
  const breakdownEnd = minuteOf(following ? Date.parse(usage.at) : anchor);
  const refreshMs = following && live ? BREAKDOWN_REFRESH_MS : undefined;
  const breakdown = useUsageBreakdown({
    tenantId,
    policy,
    range: filters.range,
    end: breakdownEnd,
    refreshMs,
  });
  const show = (change: { policy?: string; range?: Range }) => {
    reanchor();
    void setFilters(change);
  };

  return (
    <Stack component="section" aria-labelledby="traffic" gap="sm">
      <Title order={2} size="h3" id="traffic">
        Traffic
      </Title>
      {usage === undefined && !liveError ? (
        <Text c="dimmed" size="sm">
          Connecting to live usage…
        </Text>
      ) : policies.length === 0 && !liveError ? (
        <Card withBorder>
          <EmptyState title="No policy published yet">
            Each published policy gets a card here with its checks per second and denials, live.
          </EmptyState>
        </Card>
      ) : (
        <>
          <PolicyCards
            policies={policies}
            selected={policy}
            onSelect={(name) => show({ policy: name })}
          />
          {policy !== undefined && (
            <UsageChart
              policy={policy}
              range={filters.range}
              onRange={(range) => show({ range })}
              live={live}
              onLive={(on) => {
                // resuming reads the series again: it fills the seconds missed while paused
                if (on) reanchor();
                setLive(on);
              }}
              {...chart}
              liveError={liveError}
            />
          )}
          {policy !== undefined && (
            <WhyDenied
              policy={policy}
              rangeWords={RANGE_SPECS[filters.range].words}
              totals={breakdown.totals}
              error={breakdown.error}
            />
          )}
          {policy !== undefined && liveRange && (
            <TopIdentifiers
              tenantId={tenantId}
              policy={policy}
              by={filters.top}
              onBy={(top) => void setFilters({ top })}
              end={breakdownEnd}
              refreshMs={refreshMs}
            />
          )}
        </>
      )}
    </Stack>
  );
}
