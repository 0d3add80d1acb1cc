'use client';

import { Anchor, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import NextLink from 'next/link';
import { useParams } from 'next/navigation';
import type { ReactNode } from 'react';
import { useQuery } from 'urql';
import { tenantPath } from '@/components/navigation';
import { PageHeader } from '@/components/page-header';
import { QueryState } from '@/components/query-state';
import { formatDateTime, formatNumber } from '@/lib/format';
import { useSession } from '@/lib/session';
import { WebhookEndpointDocument } from '../_components/documents';
import { EnabledBadge } from '../_components/enabled-badge';
import { EndpointActions } from '../_components/endpoint-actions';

/** A label and its value, in a card's grid. */
function Figure({
  label,
  span = 1,
  children,
}: {
  label: string;
  span?: number;
  children: ReactNode;
}) {
  return (
    <div style={{ gridColumn: `span ${span}` }}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fw={600} mt={2} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}

export default function WebhookEndpointPage() {
  const { tenantId, endpointId } = useParams<{ tenantId: string; endpointId: string }>();
  const canWrite = useSession().canWrite(tenantId);
  const [{ data, fetching, error }] = useQuery({
    query: WebhookEndpointDocument,
    variables: { id: endpointId },
  });
  const endpoint = data?.webhookEndpoint;
  const queue = endpoint?.queue;

  return (
    <Stack>
      <Anchor component={NextLink} href={tenantPath(tenantId, '/webhooks')} size="sm">
        ← Webhooks
      </Anchor>
      <QueryState fetching={fetching} error={error} hasData={Boolean(endpoint)}>
        {endpoint && queue && (
          <Stack>
            <PageHeader
              title={endpoint.name}
              description={
                <Group gap="xs" component="span">
                  <EnabledBadge enabled={endpoint.enabled} />
                  <span>Created {formatDateTime(endpoint.createdAt)}</span>
                </Group>
              }
              actions={canWrite && <EndpointActions endpoint={endpoint} />}
            />
            <Card withBorder>
              <Title order={2} size="h4" mb="sm">
                Settings
              </Title>
              <SimpleGrid cols={{ base: 2, md: 4 }}>
                <Figure label="URL" span={2}>
                  {endpoint.url}
                </Figure>
                <Figure label="Leak rate">
                  {formatNumber(endpoint.leakRatePerSec)} per second
                </Figure>
                <Figure label="Queue capacity">
                  {formatNumber(endpoint.queueCapacity)} events
                </Figure>
                <Figure label="Max attempts">{formatNumber(endpoint.maxAttempts)}</Figure>
                <Figure label="Last changed">{formatDateTime(endpoint.updatedAt)}</Figure>
                <Figure label="Previous secret signs until">
                  {endpoint.previousSecretExpiresAt
                    ? formatDateTime(endpoint.previousSecretExpiresAt)
                    : 'no previous secret'}
                </Figure>
              </SimpleGrid>
            </Card>
            <Card withBorder>
              <Title order={2} size="h4">
                Queue
              </Title>
              <Text size="sm" c="dimmed" mb="sm">
                As the workers see it, when this page was loaded.
              </Text>
              <SimpleGrid cols={{ base: 2, sm: 4 }}>
                <Figure label="Waiting">
                  {formatNumber(queue.depth)} of {formatNumber(endpoint.queueCapacity)}
                </Figure>
                <Figure label="In flight">{formatNumber(queue.inFlight)}</Figure>
                <Figure label="Oldest waiting">
                  {queue.oldestWaitingMs === null
                    ? 'none'
                    : `${formatNumber(Math.round(queue.oldestWaitingMs / 1000))} s`}
                </Figure>
                <Figure label="Paused until">
                  {queue.pausedUntil ? formatDateTime(queue.pausedUntil) : 'not paused'}
                </Figure>
                <Figure label="Delivered">{formatNumber(queue.delivered)}</Figure>
                <Figure label="Failed attempts">{formatNumber(queue.failed)}</Figure>
                <Figure label="Failures in a row">{formatNumber(queue.consecutiveFailures)}</Figure>
                <Figure label="Dead letters">{formatNumber(queue.dead)}</Figure>
              </SimpleGrid>
            </Card>
          </Stack>
        )}
      </QueryState>
    </Stack>
  );
}
