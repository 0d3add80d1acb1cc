'use client';

import { Anchor, Card, Table, Text, Title } from '@mantine/core';
import NextLink from 'next/link';
import { useMemo } from 'react';
import { useQuery } from 'urql';
import { identifierPath } from '@/components/navigation';
import { formatNumber } from '@/lib/format';
import { NETWORK_ONLY, useRefresh } from '@/lib/use-refresh';
import { MostDeniedDocument } from './documents';
import { LIVE_SECONDS } from './usage-series';

/**
 * The policy's ten most denied identifiers over the last 15 minutes (the control plane keeps the
 * per-minute lists that long), read again every `refreshMs` while live. Each opens its
 * identifier page.
 */
export function MostDenied({
  tenantId,
  policy,
  end,
  refreshMs,
}: {
  tenantId: string;
  policy: string;
  /** As for `useUsageBreakdown`: a whole minute, moved once a minute. */
  end: number | undefined;
  refreshMs: number | undefined;
}) {
  const variables = useMemo(() => {
    const to = (end ?? 0) + 60_000;
    return {
      tenantId,
      policy,
      from: new Date(to - LIVE_SECONDS * 1000).toISOString(),
      to: new Date(to).toISOString(),
    };
  }, [tenantId, policy, end]);
  const [{ data }, reexecute] = useQuery({
    query: MostDeniedDocument,
    variables,
    pause: end === undefined,
    context: NETWORK_ONLY,
  });
  useRefresh(reexecute, refreshMs);
  const top = data?.topDeniedIdentifiers;
  const headingId = `most-denied-${policy}`;
  return (
    <Card withBorder component="section" aria-labelledby={headingId}>
      <Title order={2} size="h4" id={headingId}>
        Most denied identifiers of {policy}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Over the last 15 minutes; each opens its page (its state now, its decisions, its overrides).
      </Text>
      {top === undefined ? (
        <Text size="sm" c="dimmed">
          Reading…
        </Text>
      ) : top.length === 0 ? (
        <Text size="sm" c="dimmed">
          No identifier was denied.
        </Text>
      ) : (
        <Table verticalSpacing={2} fz="sm" aria-label={`Most denied identifiers of ${policy}`}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Identifier</Table.Th>
              <Table.Th ta="right">Denied</Table.Th>
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
                <Table.Td ta="right">{formatNumber(row.denied)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Card>
  );
}
