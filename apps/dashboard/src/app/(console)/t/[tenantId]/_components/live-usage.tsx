'use client';

import { Card, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { EmptyState } from '@/components/query-state';
import { useLiveUsage } from '../_hooks/use-live-usage';
import { useOverviewFilters } from '../_hooks/use-overview-filters';
import { useUsageBreakdown } from '../_hooks/use-usage-breakdown';
import { useUsageChart } from '../_hooks/use-usage-chart';
import { PolicyCards } from './policy-cards';
import { UsageChart } from './usage-chart';
import { RANGE_SPECS, type Range } from './usage-series';
import { WhyDenied } from './why-denied';

/** The live breakdown is read again when the feed's clock passes a multiple of this (ms). */
const BREAKDOWN_STEP_MS = 5000;

/**
 * The tenant's traffic: a card per published policy, the chosen policy's chart and why it denied,
 * over the range in the URL; live for the last 15 minutes unless paused.
 */
export function LiveUsage({ tenantId }: { tenantId: string }) {
  const [filters, setFilters] = useOverviewFilters();
  const [live, setLive] = useState(true);
  const { live: usage, error: liveError } = useLiveUsage(tenantId, !live);
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
  // the breakdown follows the live feed every few seconds, else the chart's anchor
  const liveRange = RANGE_SPECS[filters.range].live;
  const breakdownEnd =
    liveRange && usage
      ? Math.floor(Date.parse(usage.at) / BREAKDOWN_STEP_MS) * BREAKDOWN_STEP_MS
      : anchor;
  const breakdown = useUsageBreakdown({
    tenantId,
    policy,
    range: filters.range,
    end: breakdownEnd,
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
        </>
      )}
    </Stack>
  );
}
