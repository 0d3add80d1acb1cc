'use client';

import { Text } from '@mantine/core';
import { useQuery } from 'urql';
import { graphql } from '@/generated/gql';

const TenantNameDocument = graphql(`
  query TenantName($id: ID!) {
    tenant(id: $id) {
      id
      name
    }
  }
`);

/** The heading of a tenant's section of the navigation: its name. */
export function TenantLabel({ tenantId }: { tenantId: string }) {
  const [{ data }] = useQuery({ query: TenantNameDocument, variables: { id: tenantId } });
  return (
    <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pt="md" pb={4}>
      {data?.tenant.name ?? 'Tenant'}
    </Text>
  );
}
