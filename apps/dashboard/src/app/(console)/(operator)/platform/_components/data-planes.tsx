'use client';

import { Anchor, Badge, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import NextLink from 'next/link';
import { tenantPath } from '@/components/navigation';
import { EmptyState } from '@/components/query-state';
import type { PlatformQuery } from '@/generated/gql/graphql';
import { formatNumber } from '@/lib/format';
import { ageOf, perSecond } from './ages';

type DataPlane = PlatformQuery['platform']['dataPlanes'][number];

const counted = (n: number, noun: string) => `${formatNumber(n)} ${noun}${n === 1 ? '' : 's'}`;

/** A data plane's Redis: its connections (only those not ready are named), round trip, circuits. */
function RedisHealth({ redis }: { redis: NonNullable<DataPlane['redis']> }) {
  const down = redis.connections.filter((c) => c.status !== 'ready');
  return (
    <Stack gap={2}>
      {down.length === 0 ? (
        <Text size="sm">ready · {redis.roundTripMs.toFixed(1)} ms</Text>
      ) : (
        <Text size="sm" c="red">
          {down.map((c) => `${c.role}: ${c.status}`).join(', ')}
        </Text>
      )}
      {redis.openCircuits > 0 && (
        <Badge color="orange" variant="light" size="sm">
          {redis.openCircuits} {redis.openCircuits === 1 ? 'circuit' : 'circuits'} open
        </Badge>
      )}
    </Stack>
  );
}

function CacheState({ cache }: { cache: NonNullable<DataPlane['cache']> }) {
  return (
    <Stack gap={2}>
      <Text size="sm">
        {counted(cache.tenants, 'tenant')} · {counted(cache.keys, 'key')}
      </Text>
      {cache.behind === 0 ? (
        <Text size="xs" c="dimmed">
          every version current
        </Text>
      ) : (
        <Group gap={4}>
          <Badge color="yellow" variant="light" size="sm">
            {cache.behind} behind
          </Badge>
          {cache.behindTenantIds.slice(0, 3).map((id) => (
            <Anchor key={id} component={NextLink} href={tenantPath(id, '/versions')} size="xs">
              {id}
            </Anchor>
          ))}
        </Group>
      )}
    </Stack>
  );
}

/** Every data plane that beat within the hour: live ones first, as their heartbeats tell. */
export function DataPlanes({ dataPlanes, now }: { dataPlanes: DataPlane[]; now: string }) {
  return (
    <Card withBorder component="section" aria-labelledby="platform-data-planes" p={0}>
      <Title order={2} size="h4" id="platform-data-planes" p="md" pb={0}>
        Data planes
      </Title>
      <Text size="sm" c="dimmed" px="md" pb="xs">
        Each answers /v1/check and writes a heartbeat every few seconds; one silent for three beats
        is shown as silent, and listed for an hour.
      </Text>
      {dataPlanes.length === 0 ? (
        <EmptyState title="No data plane has reported">
          A data plane reports within seconds of its start: check that it runs with this control
          plane’s Redis and key prefix.
        </EmptyState>
      ) : (
        <Table.ScrollContainer minWidth={880}>
          <Table verticalSpacing="sm" aria-labelledby="platform-data-planes">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Instance</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th ta="right">Checks</Table.Th>
                <Table.Th>Redis</Table.Th>
                <Table.Th>Policy cache</Table.Th>
                <Table.Th ta="right">Usage waiting</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {dataPlanes.map((plane) => (
                <Table.Tr key={plane.instance}>
                  <Table.Td>
                    <Text size="sm" fw={600}>
                      {plane.host ?? plane.instance}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {plane.instance}
                      {plane.version && ` · v${plane.version}`}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge color={plane.live ? 'teal' : 'gray'} variant="light">
                      {plane.live ? 'live' : 'silent'}
                    </Badge>
                    <Text size="xs" c="dimmed">
                      seen {ageOf(plane.lastSeenAt, now)} ago
                    </Text>
                  </Table.Td>
                  <Table.Td ta="right">
                    {plane.checksPerSecond === null ? (
                      '–'
                    ) : (
                      <>
                        <Text size="sm">{perSecond(plane.checksPerSecond)}</Text>
                        <Text size="xs" c="dimmed">
                          {perSecond(plane.deniedPerSecond ?? 0)} denied
                        </Text>
                      </>
                    )}
                  </Table.Td>
                  <Table.Td>{plane.redis ? <RedisHealth redis={plane.redis} /> : '–'}</Table.Td>
                  <Table.Td>{plane.cache ? <CacheState cache={plane.cache} /> : '–'}</Table.Td>
                  <Table.Td ta="right">
                    {plane.pendingUsage === null ? '–' : formatNumber(plane.pendingUsage)}
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
