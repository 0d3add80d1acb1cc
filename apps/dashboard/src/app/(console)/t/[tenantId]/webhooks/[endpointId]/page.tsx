'use client';

import { Anchor, Badge, Card, Group, SimpleGrid, Stack, Switch, Text, Title } from '@mantine/core';
import NextLink from 'next/link';
import { useParams } from 'next/navigation';
import { useEffect, useState } from 'react';
import { useQuery } from 'urql';
import { NETWORK_ONLY } from '@/lib/use-refresh';
import { tenantPath } from '@/components/navigation';
import { Figure } from '@/components/figure';
import { PageHeader } from '@/components/page-header';
import { QueryState } from '@/components/query-state';
import { formatDateTime, formatNumber, formatWait } from '@/lib/format';
import { useSession } from '@/lib/session';
import { WebhookEndpointDocument } from '../_components/documents';
import { EnabledBadge } from '../_components/enabled-badge';
import { EndpointActions } from '../_components/endpoint-actions';
import { DeadLetters } from './_components/dead-letters';
import { DeliveriesTable } from './_components/deliveries-table';
import { addSample, ratesOf, type QueueSample } from './_components/queue-rates';

/** The queue is read again this often (ms) while live. */
const POLL_MS = 2000;
const perSecond = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });

export default function WebhookEndpointPage() {
  const { tenantId, endpointId } = useParams<{ tenantId: string; endpointId: string }>();
  const canWrite = useSession().canWrite(tenantId);
  const [live, setLive] = useState(true);
  const [samples, setSamples] = useState<QueueSample[]>([]);
  const [{ data, fetching, error }, reexecute] = useQuery({
    query: WebhookEndpointDocument,
    variables: { id: endpointId },
    context: NETWORK_ONLY,
  });
  const endpoint = data?.webhookEndpoint;
  const queue = endpoint?.queue;
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (!live) return;
    const timer = setInterval(() => {
      reexecute(NETWORK_ONLY);
      setTick((n) => n + 1);
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [live, reexecute]);
  // the counters at each poll (unchanged ones too), for the rates over the last half minute
  const delivered = queue?.delivered;
  const failed = queue?.failed;
  useEffect(() => {
    if (delivered === undefined || failed === undefined) return;
    setSamples((held) => addSample(held, { at: Date.now(), delivered, failed }));
  }, [tick, delivered, failed]);
  const rates = ratesOf(samples);

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
            <Card withBorder component="section" aria-labelledby="queue">
              <Group justify="space-between" align="flex-start">
                <div>
                  <Group gap="xs">
                    <Title order={2} size="h4" id="queue">
                      Queue
                    </Title>
                    <Badge color={live ? 'teal' : 'gray'} variant="light">
                      {live ? 'live' : 'paused'}
                    </Badge>
                  </Group>
                  <Text size="sm" c="dimmed" mb="sm">
                    As the workers see it, read every {POLL_MS / 1000} seconds while live.
                  </Text>
                </div>
                <Switch
                  label="Live updates"
                  checked={live}
                  onChange={(event) => setLive(event.currentTarget.checked)}
                />
              </Group>
              <SimpleGrid cols={{ base: 2, sm: 4 }}>
                <Figure label="Waiting">
                  {formatNumber(queue.depth)}
                  <Text span display="block" size="xs" c="dimmed" fw={400}>
                    the FIFO admits {formatNumber(endpoint.queueCapacity)} at most; events waiting
                    for a retry count here too
                  </Text>
                </Figure>
                <Figure label="Time to drain">
                  {queue.depth === 0 ? 'empty' : `about ${formatWait(queue.timeToDrainMs)}`}
                </Figure>
                <Figure label="Oldest waiting">
                  {queue.oldestWaitingMs === null ? 'none' : formatWait(queue.oldestWaitingMs)}
                </Figure>
                <Figure label="In flight">{formatNumber(queue.inFlight)}</Figure>
                <Figure label="Paused until">
                  {queue.pausedUntil
                    ? `${formatDateTime(queue.pausedUntil)} (${
                        queue.consecutiveFailures > 0
                          ? `${formatNumber(queue.consecutiveFailures)} failed attempts in a row`
                          : 'the receiver asked to wait'
                      })`
                    : 'not paused'}
                </Figure>
                <Figure label="Delivered">
                  {formatNumber(queue.delivered)}
                  {rates && ` · ${perSecond.format(rates.deliveredPerSec)}/s`}
                </Figure>
                <Figure label="Failed attempts">
                  {formatNumber(queue.failed)}
                  {rates && ` · ${perSecond.format(rates.failedPerSec)}/s`}
                </Figure>
                <Figure label="Dead letters">{formatNumber(queue.dead)}</Figure>
              </SimpleGrid>
            </Card>
            <Card withBorder component="section" aria-labelledby="dead-letters">
              <Title order={2} size="h4" id="dead-letters" mb="sm">
                Dead letters
              </Title>
              <DeadLetters
                endpointId={endpoint.id}
                queue={queue}
                leakRatePerSec={endpoint.leakRatePerSec}
                canWrite={canWrite}
              />
            </Card>
            <Card withBorder component="section" aria-labelledby="attempts">
              <Title order={2} size="h4" id="attempts" mb="sm">
                Recent attempts
              </Title>
              <DeliveriesTable deliveries={queue.recentDeliveries} />
            </Card>
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
          </Stack>
        )}
      </QueryState>
    </Stack>
  );
}
