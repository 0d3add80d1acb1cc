'use client';

import { Anchor, Card, Grid, Group, ScrollArea, Table, Text, UnstyledButton } from '@mantine/core';
import Link from 'next/link';
import { useState } from 'react';
import { OutcomeBadge } from '@/components/decision-figures';
import { tenantPath } from '@/components/navigation';
import { formatNumber, formatWait } from '@/lib/format';
import { reasonLabel } from '@/lib/reasons';
import type { PlaygroundRun } from '../_hooks/use-playground';
import { DecisionDetail } from './decision-detail';

/**
 * A run's outcome: how many were allowed and denied, each decision in the order sent (one opens
 * in full beside, the last by default), and where the same checks show up in the console.
 */
export function RunResults({
  tenantId,
  policy,
  run,
}: {
  tenantId: string;
  policy: string;
  run: PlaygroundRun;
}) {
  const [selected, setSelected] = useState(run.decisions.length - 1);
  const decision = run.decisions[selected] ?? run.decisions.at(-1);
  const logHref = `${tenantPath(tenantId, '/log')}?policy=${encodeURIComponent(policy)}&identifier=${encodeURIComponent(run.identifier)}`;
  const overviewHref = `${tenantPath(tenantId, '')}?policy=${encodeURIComponent(policy)}`;

  return (
    <Card withBorder padding="lg">
      <Group justify="space-between" mb="md" wrap="wrap">
        <Text fw={500} role="status">
          {formatNumber(run.allowed)} allowed, {formatNumber(run.denied)} denied for{' '}
          {run.identifier} in {formatWait(run.elapsedMs)}
        </Text>
        <Group gap="md">
          <Anchor component={Link} href={overviewHref} size="sm">
            Live chart
          </Anchor>
          <Anchor component={Link} href={logHref} size="sm">
            Request log
          </Anchor>
        </Group>
      </Group>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 6 }}>
          <ScrollArea.Autosize mah={480} offsetScrollbars>
            <Table highlightOnHover verticalSpacing={4} fz="sm" aria-label="Decisions">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>#</Table.Th>
                  <Table.Th>Outcome</Table.Th>
                  <Table.Th>Reason</Table.Th>
                  <Table.Th ta="right">Remaining</Table.Th>
                  <Table.Th ta="right">Retry after</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {run.decisions.map((d, index) => (
                  <Table.Tr
                    key={index}
                    bg={index === selected ? 'var(--mantine-color-default-hover)' : undefined}
                  >
                    <Table.Td>
                      <UnstyledButton
                        onClick={() => setSelected(index)}
                        aria-pressed={index === selected}
                        aria-label={`Check ${index + 1}`}
                        fz="sm"
                      >
                        {index + 1}
                      </UnstyledButton>
                    </Table.Td>
                    <Table.Td>
                      <OutcomeBadge allowed={d.allowed} shadow={d.reason === 'shadow'} />
                    </Table.Td>
                    <Table.Td>
                      {reasonLabel(d.reason)}
                      {d.deniedBy && ` · ${d.deniedBy}`}
                    </Table.Td>
                    <Table.Td ta="right">
                      {formatNumber(d.remaining)} of {formatNumber(d.limit)}
                    </Table.Td>
                    <Table.Td ta="right">
                      {d.retryAfterMs === 0 ? '—' : formatWait(d.retryAfterMs)}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea.Autosize>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6 }}>
          {decision && <DecisionDetail title={`Check ${selected + 1}`} decision={decision} />}
        </Grid.Col>
      </Grid>
    </Card>
  );
}
