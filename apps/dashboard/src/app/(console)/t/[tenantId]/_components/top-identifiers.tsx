'use client';

import {
  Alert,
  Anchor,
  Box,
  Card,
  Group,
  Progress,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import NextLink from 'next/link';
import { useMemo } from 'react';
import { useQuery } from 'urql';
import { identifierPath } from '@/components/navigation';
import type { TopIdentifiersQuery } from '@/generated/gql/graphql';
import { apiError } from '@/lib/errors';
import { formatDateTime, formatNumber, formatWait } from '@/lib/format';
import { NETWORK_ONLY, useRefresh } from '@/lib/use-refresh';
import type { TOP_BY } from '../_hooks/use-overview-filters';
import { TopIdentifiersDocument } from './documents';
import { LIVE_SECONDS } from './usage-series';

type TopBy = (typeof TOP_BY)[number];
type Quota = TopIdentifiersQuery['topIdentifiers'][number]['quota'][number];

const percent = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 0 });

const WORDS: Record<TopBy, { title: string; empty: string }> = {
  cost: { title: 'Heaviest identifiers', empty: 'No identifier spent anything.' },
  denied: { title: 'Most denied identifiers', empty: 'No identifier was denied.' },
};

/** "out now", "runs out in 41 s", "runs out at 7 Dec 2026, 18:32": a burn-down in words. */
function burnDown(runsOutAt: string, now: number): string {
  const inMs = Date.parse(runsOutAt) - now;
  if (inMs <= 0) return 'out now';
  return inMs < 3_600_000
    ? `runs out in ${formatWait(inMs)}`
    : `runs out at ${formatDateTime(runsOutAt)}`;
}

/** One rule's share used now, as a bar and in words, with its burn-down when there is one. */
function QuotaLine({ quota, now }: { quota: Quota; now: number }) {
  return (
    <Group gap="xs" wrap="nowrap">
      <Text size="xs" ff="monospace" w={72} truncate>
        {quota.rule}
      </Text>
      <Box w={64} aria-hidden="true">
        <Progress
          size="sm"
          value={Math.min(100, quota.used * 100)}
          color={quota.used >= 1 ? 'red' : quota.used >= 0.8 ? 'orange' : 'blue'}
        />
      </Box>
      <Text size="xs">
        {percent.format(quota.used)} used
        {quota.runsOutAt && `, ${burnDown(quota.runsOutAt, now)}`}
      </Text>
    </Group>
  );
}

/**
 * The policy's top ten identifiers over the last 15 minutes (the control plane keeps the
 * per-minute lists that long), by what they spent or by their denials, each with its share of
 * every rule's quota now and, for quotas of an hour or more, when it runs out at its rate; read
 * again every `refreshMs` while live. Each opens its identifier page.
 */
export function TopIdentifiers({
  tenantId,
  policy,
  by,
  onBy,
  end,
  refreshMs,
}: {
  tenantId: string;
  policy: string;
  by: TopBy;
  onBy: (by: TopBy) => void;
  /** As for `useUsageBreakdown`: a whole minute, moved once a minute. */
  end: number | undefined;
  refreshMs: number | undefined;
}) {
  const variables = useMemo(() => {
    const to = (end ?? 0) + 60_000;
    return {
      tenantId,
      policy,
      by: by === 'cost' ? ('COST' as const) : ('DENIED' as const),
      from: new Date(to - LIVE_SECONDS * 1000).toISOString(),
      to: new Date(to).toISOString(),
    };
  }, [tenantId, policy, by, end]);
  const [{ data, error }, reexecute] = useQuery({
    query: TopIdentifiersDocument,
    variables,
    pause: end === undefined,
    context: NETWORK_ONLY,
  });
  useRefresh(reexecute, refreshMs);
  const top = data?.topIdentifiers;
  const now = Date.now();
  const headingId = `top-identifiers-${policy}`;
  const caption = `${WORDS[by].title} of ${policy}`;
  return (
    <Card withBorder component="section" aria-labelledby={headingId}>
      <Group justify="space-between" align="flex-start" mb="sm">
        <Stack gap={2}>
          <Title order={2} size="h4" id={headingId}>
            {caption}
          </Title>
          <Text size="sm" c="dimmed">
            Over the last 15 minutes, with each rule’s quota used now; each opens its page.
          </Text>
        </Stack>
        <SegmentedControl
          aria-label="Rank identifiers by"
          size="xs"
          value={by}
          onChange={(value) => onBy(value as TopBy)}
          data={[
            { value: 'cost', label: 'Heaviest' },
            { value: 'denied', label: 'Most denied' },
          ]}
        />
      </Group>
      {error && (
        <Alert color="red" role="alert" title="The identifiers could not be read" mb="sm">
          {apiError(error).message}
        </Alert>
      )}
      {top === undefined ? (
        !error && (
          <Text size="sm" c="dimmed">
            Reading…
          </Text>
        )
      ) : top.length === 0 ? (
        <Text size="sm" c="dimmed">
          {WORDS[by].empty}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table verticalSpacing={4} fz="sm" aria-label={caption}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Identifier</Table.Th>
                <Table.Th ta="right">Spent</Table.Th>
                <Table.Th ta="right">Denied</Table.Th>
                <Table.Th>Quota now</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {top.map((row) => (
                <Table.Tr key={row.identifier}>
                  <Table.Td>
                    <Anchor
                      component={NextLink}
                      href={identifierPath(tenantId, policy, row.identifier)}
                      ff="monospace"
                      size="sm"
                    >
                      {row.identifier}
                    </Anchor>
                  </Table.Td>
                  <Table.Td ta="right">{formatNumber(row.cost)}</Table.Td>
                  <Table.Td ta="right">{formatNumber(row.denied)}</Table.Td>
                  <Table.Td>
                    <Stack gap={2}>
                      {row.quota.map((quota) => (
                        <QuotaLine key={quota.rule} quota={quota} now={now} />
                      ))}
                    </Stack>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Card>
  );
}
