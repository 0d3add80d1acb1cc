'use client';

import { Badge, Card, Table, Text, Title } from '@mantine/core';
import { Fragment } from 'react';
import { EmptyState } from '@/components/query-state';
import type { PlatformQuery } from '@/generated/gql/graphql';
import { formatNumber } from '@/lib/format';
import { ageOf } from './ages';

type Worker = PlatformQuery['platform']['workers'][number];

/** Every worker that beat within the hour, and each BullMQ queue it consumes. */
export function Workers({ workers, now }: { workers: Worker[]; now: string }) {
  return (
    <Card withBorder component="section" aria-labelledby="platform-workers" p={0}>
      <Title order={2} size="h4" id="platform-workers" p="md" pb={0}>
        Workers
      </Title>
      <Text size="sm" c="dimmed" px="md" pb="xs">
        Each BullMQ queue a worker consumes, with its jobs by state: sluice-webhooks (the webhook
        dispatcher; off without SLUICE_SECRETS_KEY), sluice-usage (usage roll-ups and retention) and
        sluice-system.
      </Text>
      {workers.length === 0 ? (
        <EmptyState title="No worker has reported">
          Without a worker, usage is not rolled up and webhooks are not delivered.
        </EmptyState>
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table verticalSpacing="xs" aria-labelledby="platform-workers">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Queue</Table.Th>
                <Table.Th>Worker</Table.Th>
                <Table.Th ta="right">Waiting</Table.Th>
                <Table.Th ta="right">Active</Table.Th>
                <Table.Th ta="right">Delayed</Table.Th>
                <Table.Th ta="right">Failed</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {workers.map((worker) => (
                <Fragment key={worker.instance}>
                  <Table.Tr>
                    <Table.Td colSpan={6} bg="var(--mantine-color-default-hover)">
                      <Text size="sm" fw={600} span>
                        {worker.host ?? worker.instance}
                      </Text>{' '}
                      <Badge color={worker.live ? 'teal' : 'gray'} variant="light" size="sm">
                        {worker.live ? 'live' : 'silent'}
                      </Badge>{' '}
                      <Text size="xs" c="dimmed" span>
                        {worker.instance}
                        {worker.version && ` · v${worker.version}`} · seen{' '}
                        {ageOf(worker.lastSeenAt, now)} ago
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                  {worker.queues.map((queue) => (
                    <Table.Tr key={`${worker.instance}-${queue.name}`}>
                      <Table.Td>{queue.name}</Table.Td>
                      <Table.Td>
                        <Badge color={queue.running ? 'teal' : 'gray'} variant="dot" size="sm">
                          {queue.running ? 'running' : 'off'}
                        </Badge>
                      </Table.Td>
                      <Table.Td ta="right">{formatNumber(queue.waiting)}</Table.Td>
                      <Table.Td ta="right">{formatNumber(queue.active)}</Table.Td>
                      <Table.Td ta="right">{formatNumber(queue.delayed)}</Table.Td>
                      <Table.Td ta="right" c={queue.failed > 0 ? 'red' : undefined}>
                        {formatNumber(queue.failed)}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Fragment>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Card>
  );
}
