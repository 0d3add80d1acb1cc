'use client';

import { Sparkline } from '@mantine/charts';
import { Card, Group, SimpleGrid, Text, UnstyledButton } from '@mantine/core';
import { formatNumber } from '@/lib/format';
import type { LivePolicy } from '../_hooks/use-live-usage';
import { CARD_SECONDS, minuteRates, newestSecond, secondsUpTo, topRule } from './usage-series';

const percent = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 });
const perSecond = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });

/**
 * One card per published policy, from the live feed: checks per second and the share denied over
 * the last minute, the rule that denied most, shadow and candidate denials when there are any, and
 * a sparkline of the checks per second received (the last minute's at most). Choosing a card charts that policy.
 */
export function PolicyCards(props: {
  policies: LivePolicy[];
  selected: string | undefined;
  onSelect: (policy: string) => void;
}) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }}>
      {props.policies.map((live) => (
        <PolicyCard
          key={live.policy}
          live={live}
          selected={live.policy === props.selected}
          onSelect={() => props.onSelect(live.policy)}
        />
      ))}
    </SimpleGrid>
  );
}

function PolicyCard({
  live,
  selected,
  onSelect,
}: {
  live: LivePolicy;
  selected: boolean;
  onSelect: () => void;
}) {
  const { lastMinute } = live;
  const { checksPerSecond, denialRate } = minuteRates(lastMinute);
  const top = topRule(lastMinute.deniedByRule);
  const end = newestSecond(live.seconds);
  // only the seconds received: a page open for less than a minute has a shorter line
  const spark =
    end === undefined
      ? []
      : secondsUpTo(live.seconds, end, Math.min(CARD_SECONDS, live.seconds.size)).map(
          (s) => s.allowed + s.denied,
        );
  return (
    <UnstyledButton onClick={onSelect} aria-pressed={selected}>
      <Card
        withBorder
        h="100%"
        style={selected ? { borderColor: 'var(--mantine-primary-color-filled)' } : undefined}
      >
        <Group justify="space-between" align="baseline">
          <Text fw={700}>{live.policy}</Text>
          <Text size="sm" c="dimmed">
            {perSecond.format(checksPerSecond)} checks/s
          </Text>
        </Group>
        <Sparkline
          h={40}
          my="xs"
          data={spark}
          color={lastMinute.denied > 0 ? 'red.6' : 'teal.6'}
          curveType="linear"
          fillOpacity={0.3}
          strokeWidth={1.5}
          areaProps={{ isAnimationActive: false }}
        />
        <Text size="sm">
          {denialRate === null
            ? 'No checks in the last minute'
            : `${percent.format(denialRate)} denied`}
          {top && ` · most by ${top.rule} (${formatNumber(top.count)})`}
        </Text>
        {(lastMinute.shadowDenied > 0 || lastMinute.candidateDenied > 0) && (
          <Text size="sm" c="dimmed">
            Would have denied: {formatNumber(lastMinute.shadowDenied)} in shadow,{' '}
            {formatNumber(lastMinute.candidateDenied)} by candidate rules
          </Text>
        )}
        {lastMinute.failOpen > 0 && (
          <Text size="sm" c="orange.8">
            {formatNumber(lastMinute.failOpen)} allowed unchecked (Redis failed, policy fails open)
          </Text>
        )}
      </Card>
    </UnstyledButton>
  );
}
