'use client';

import { Badge, Table, Text } from '@mantine/core';
import type { WebhookEndpointQuery } from '@/generated/gql/graphql';
import { formatNumber, formatTimestamp } from '@/lib/format';

type Delivery = NonNullable<
  WebhookEndpointQuery['webhookEndpoint']
>['queue']['recentDeliveries'][number];

const STATUS_COLORS: Record<Delivery['status'], string> = {
  DELIVERED: 'teal',
  FAILED: 'orange',
  DEAD: 'red',
  PENDING: 'gray',
};

/** The endpoint's latest attempts, newest first: each event's attempts share its id. */
export function DeliveriesTable({ deliveries }: { deliveries: readonly Delivery[] }) {
  if (deliveries.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No attempt yet: events sent to this endpoint show here as they go out.
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table verticalSpacing={4} fz="sm" aria-label="Recent attempts">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Time</Table.Th>
            <Table.Th>Event</Table.Th>
            <Table.Th ta="right">Attempt</Table.Th>
            <Table.Th miw={110}>Status</Table.Th>
            <Table.Th ta="right">Answer</Table.Th>
            <Table.Th ta="right">Latency</Table.Th>
            <Table.Th>Error</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {deliveries.map((delivery) => (
            <Table.Tr key={delivery.id}>
              <Table.Td>{formatTimestamp(delivery.createdAt)}</Table.Td>
              <Table.Td>
                <Text size="sm" ff="monospace">
                  {delivery.eventId}
                </Text>
                <Text size="xs" c="dimmed">
                  {delivery.eventType}
                </Text>
              </Table.Td>
              <Table.Td ta="right">{formatNumber(delivery.attempt)}</Table.Td>
              <Table.Td>
                <Badge color={STATUS_COLORS[delivery.status]} variant="light">
                  {delivery.status.toLowerCase()}
                </Badge>
              </Table.Td>
              <Table.Td ta="right">{delivery.responseCode ?? 'none'}</Table.Td>
              <Table.Td ta="right">
                {delivery.latencyMs === null ? '—' : `${formatNumber(delivery.latencyMs)} ms`}
              </Table.Td>
              <Table.Td>
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {delivery.error ?? '—'}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
