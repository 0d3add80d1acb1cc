'use client';

import { Badge, Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useParams } from 'next/navigation';
import { useQuery } from 'urql';
import { PageHeader } from '@/components/page-header';
import { QueryState } from '@/components/query-state';
import { TenantStatusBadge } from '@/components/tenant-status-badge';
import { graphql } from '@/generated/gql';
import { formatDateTime } from '@/lib/format';
import { roleLabel } from '@/lib/roles';
import { useSession } from '@/lib/session';

const TenantOverviewDocument = graphql(`
  query TenantOverview($id: ID!) {
    tenant(id: $id) {
      id
      name
      slug
      status
      createdAt
      plan {
        id
        name
        slug
      }
      publication {
        version
        redisVersion
        pending
      }
    }
  }
`);

export default function TenantOverviewPage() {
  const { tenantId } = useParams<{ tenantId: string }>();
  const { roleIn } = useSession();
  const [{ data, fetching, error }] = useQuery({
    query: TenantOverviewDocument,
    variables: { id: tenantId },
  });
  const tenant = data?.tenant;
  return (
    <QueryState fetching={fetching} error={error} hasData={Boolean(tenant)}>
      {tenant && (
        <Stack>
          <PageHeader
            title={tenant.name}
            description={`Tenant ${tenant.slug}, on the ${tenant.plan.name} plan. You are its ${roleLabel(roleIn(tenantId) ?? '')}.`}
          />
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <Card withBorder>
              <Text size="sm" c="dimmed">
                Status
              </Text>
              <Group mt={6}>
                <TenantStatusBadge status={tenant.status} />
              </Group>
            </Card>
            <Card withBorder>
              <Text size="sm" c="dimmed">
                Plan
              </Text>
              <Text fw={600} mt={6}>
                {tenant.plan.name}
              </Text>
            </Card>
            <Card withBorder>
              <Text size="sm" c="dimmed">
                Policies published
              </Text>
              <Group mt={6} gap="xs">
                <Text fw={600}>
                  {tenant.publication.redisVersion === null
                    ? 'not yet'
                    : `version ${tenant.publication.redisVersion}`}
                </Text>
                {tenant.publication.pending && <Badge color="yellow">publishing</Badge>}
              </Group>
            </Card>
          </SimpleGrid>
          <Text size="sm" c="dimmed">
            Created {formatDateTime(tenant.createdAt)}
          </Text>
        </Stack>
      )}
    </QueryState>
  );
}
