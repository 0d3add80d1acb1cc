'use client';

import { AreaChart } from '@mantine/charts';
import { Card, Group, SegmentedControl, Text, Title } from '@mantine/core';
import { DECISIONS_CHART_PROPS } from '@/components/decisions-chart';
import type { PlatformQuery } from '@/generated/gql/graphql';
import { formatNumber } from '@/lib/format';
import { PLATFORM_RANGES, type PlatformRange, RANGE_LABELS } from '../_hooks/use-platform-range';

type Traffic = PlatformQuery['platform']['traffic'];

const minuteLabel = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });
const hourLabel = new Intl.DateTimeFormat(undefined, {
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
});
const clock = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });

const SPANS: Record<PlatformRange, string> = {
  HOUR: 'the last hour, by minute',
  DAY: 'the last 24 hours, by hour',
  WEEK: 'the last 7 days, by hour',
};

/** Allowed and denied checks of every tenant together, from the worker's roll-ups. */
export function TrafficCard(props: {
  traffic: Traffic;
  range: PlatformRange;
  onRange: (range: PlatformRange) => void;
}) {
  const { traffic, range } = props;
  const label = traffic.resolution === 'MINUTE' ? minuteLabel : hourLabel;
  // minutes the worker has not folded yet would read as a drop to zero: the chart ends before them
  const folded = traffic.rolledUpTo ? new Date(traffic.rolledUpTo).getTime() : undefined;
  const shown =
    traffic.resolution === 'MINUTE' && folded !== undefined
      ? traffic.points.filter((point) => new Date(point.at).getTime() < folded)
      : traffic.points;
  const rows = shown.map((point) => ({
    label: label.format(new Date(point.at)),
    allowed: point.allowed,
    denied: point.denied,
  }));
  const checks = traffic.allowed + traffic.denied;
  return (
    <Card withBorder component="section" aria-labelledby="platform-traffic">
      <Group justify="space-between" align="flex-start" mb="sm" wrap="wrap">
        <div>
          <Title order={2} size="h4" id="platform-traffic">
            Checks across tenants
          </Title>
          <Text size="sm" c="dimmed">
            Over {SPANS[range]}, from the roll-ups
            {traffic.rolledUpTo
              ? ` (up to ${clock.format(new Date(traffic.rolledUpTo))}: the last minute or two arrive with the worker’s next run).`
              : ': none yet (the worker folds each minute a few seconds after it ends).'}
          </Text>
        </div>
        <SegmentedControl
          aria-label="Range"
          value={range}
          onChange={(value) => props.onRange(value as PlatformRange)}
          data={PLATFORM_RANGES.map((r) => ({ value: r, label: RANGE_LABELS[r] }))}
        />
      </Group>
      <AreaChart
        h={220}
        data={rows}
        dataKey="label"
        series={[
          { name: 'allowed', label: 'Allowed', color: 'teal.6' },
          { name: 'denied', label: 'Denied', color: 'red.6' },
        ]}
        {...DECISIONS_CHART_PROPS}
      />
      <Text size="sm" mt="xs">
        In total: {formatNumber(checks)} checks, {formatNumber(traffic.denied)} denied
        {checks > 0 && ` (${((traffic.denied / checks) * 100).toFixed(1)} %)`}, from{' '}
        {formatNumber(traffic.activeTenants)} {traffic.activeTenants === 1 ? 'tenant' : 'tenants'}.
      </Text>
    </Card>
  );
}
