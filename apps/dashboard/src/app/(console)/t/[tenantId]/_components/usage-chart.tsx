'use client';

import { AreaChart } from '@mantine/charts';
import { Alert, Badge, Card, Group, SegmentedControl, Switch, Text, Title } from '@mantine/core';
import type { CombinedError } from 'urql';
import { DECISIONS_CHART_PROPS } from '@/components/decisions-chart';
import { QueryState } from '@/components/query-state';
import { formatNumber } from '@/lib/format';
import type { ChartRow } from '../_hooks/use-usage-chart';
import {
  rangeWithResolution,
  RANGE_SPECS,
  RANGES,
  type Range,
  type UsageCounts,
} from './usage-series';

/** The four outcomes in the chart, each in its own colour. */
const SERIES = [
  { name: 'allowed', label: 'Allowed', color: 'teal.6' },
  { name: 'denied', label: 'Denied', color: 'red.6' },
  { name: 'shadowDenied', label: 'Shadow-denied', color: 'orange.5' },
  { name: 'candidateDenied', label: 'Candidate-denied', color: 'violet.5' },
] as const;

/** What the chart shows, in words (the figures a reader, or a test, can read off). */
function summary(totals: UsageCounts): string {
  return SERIES.map((s) => `${formatNumber(totals[s.name])} ${s.label.toLowerCase()}`).join(', ');
}

/**
 * A policy's decisions over the chosen range: allowed, denied, shadow-denied (allowed only because
 * the policy runs in shadow) and denied by candidate rules. The last 15 minutes move every second
 * unless paused; the longer ranges come from the minute roll-ups.
 */
export function UsageChart(props: {
  policy: string;
  range: Range;
  onRange: (range: Range) => void;
  live: boolean;
  onLive: (live: boolean) => void;
  rows: ChartRow[] | undefined;
  totals: UsageCounts | undefined;
  fetching: boolean;
  error: CombinedError | undefined;
  /** The error that ended the live feed, if it ended. */
  liveError: CombinedError | undefined;
}) {
  const { policy, range, live, rows, totals } = props;
  const isLive = RANGE_SPECS[range].live;
  const headingId = `usage-${policy}`;
  return (
    <Card withBorder component="section" aria-labelledby={headingId}>
      <Group justify="space-between" align="flex-start" mb="sm" wrap="wrap">
        <div>
          <Group gap="xs">
            <Title order={2} size="h4" id={headingId}>
              Decisions of {policy}
            </Title>
            {isLive && (
              <Badge color={live && !props.liveError ? 'teal' : 'gray'} variant="light">
                {props.liveError ? 'stopped' : live ? 'live' : 'paused'}
              </Badge>
            )}
          </Group>
          <Text size="sm" c="dimmed">
            Over {rangeWithResolution(range)}.
          </Text>
        </div>
        <Group gap="md">
          {isLive && (
            <Switch
              label="Live updates"
              checked={live}
              disabled={Boolean(props.liveError)}
              onChange={(event) => props.onLive(event.currentTarget.checked)}
            />
          )}
          <SegmentedControl
            aria-label="Range"
            value={range}
            onChange={(value) => props.onRange(value as Range)}
            data={RANGES.map((r) => ({ value: r, label: RANGE_SPECS[r].label }))}
          />
        </Group>
      </Group>
      {isLive && props.liveError && (
        <Alert color="yellow" role="alert" title="Live updates stopped" mb="sm">
          {props.liveError.graphQLErrors[0]?.message ?? props.liveError.message}
        </Alert>
      )}
      <QueryState fetching={props.fetching} error={props.error} hasData={Boolean(rows)}>
        {rows && totals && (
          <>
            <AreaChart
              h={230}
              data={rows}
              dataKey="label"
              series={SERIES.map((s) => ({ name: s.name, label: s.label, color: s.color }))}
              {...DECISIONS_CHART_PROPS}
            />
            <Text size="sm" mt="xs">
              In total: {summary(totals)}.
            </Text>
          </>
        )}
      </QueryState>
    </Card>
  );
}
