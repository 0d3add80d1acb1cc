'use client';

import { Alert, Anchor, Card, SimpleGrid, Text, Title } from '@mantine/core';
import NextLink from 'next/link';
import { Figure } from '@/components/figure';
import { tenantPath } from '@/components/navigation';
import type { PlatformQuery } from '@/generated/gql/graphql';
import { formatNumber } from '@/lib/format';
import { ageOf } from './ages';

type Publication = PlatformQuery['platform']['publication'];

/** The outbox the relay publishes tenants from: what waits, for how long, and why it fails. */
export function PublicationCard({ publication, now }: { publication: Publication; now: string }) {
  return (
    <Card withBorder component="section" aria-labelledby="platform-publication">
      <Title order={2} size="h4" id="platform-publication">
        Publication
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Every change to a tenant’s policies, keys or status waits in the outbox until the relay has
        published it to Redis, where the data planes read it.
      </Text>
      <SimpleGrid cols={{ base: 2, sm: 4 }}>
        <Figure label="Waiting">{formatNumber(publication.pending)}</Figure>
        <Figure label="Lag (oldest waiting)">
          {publication.oldestPendingAt ? ageOf(publication.oldestPendingAt, now) : 'none'}
        </Figure>
        <Figure label="Retrying">{formatNumber(publication.retrying)}</Figure>
        <Figure label="Last published">
          {publication.lastPublishedAt ? `${ageOf(publication.lastPublishedAt, now)} ago` : 'never'}
        </Figure>
      </SimpleGrid>
      {publication.lastError && (
        <Alert color="red" role="alert" title="Publishing failed" mt="md">
          {publication.lastErrorTenantId && (
            <>
              Tenant{' '}
              <Anchor component={NextLink} href={tenantPath(publication.lastErrorTenantId, '')}>
                {publication.lastErrorTenantId}
              </Anchor>
              :{' '}
            </>
          )}
          {publication.lastError}
        </Alert>
      )}
    </Card>
  );
}
