'use client';

import { Anchor, Card, Table, Text, Title } from '@mantine/core';
import NextLink from 'next/link';
import { tenantPath } from '@/components/navigation';
import { EmptyState } from '@/components/query-state';
import type { PlatformQuery } from '@/generated/gql/graphql';
import { formatNumber } from '@/lib/format';

type TenantTraffic = PlatformQuery['platform']['traffic']['topByChecks'][number];

/** A top list of tenants over the chosen range; each name opens the tenant's overview. */
export function TopTenants(props: {
  title: string;
  id: string;
  tenants: TenantTraffic[];
  empty: string;
}) {
  return (
    <Card withBorder component="section" aria-labelledby={props.id} p={0}>
      <Title order={2} size="h4" id={props.id} p="md" pb="xs">
        {props.title}
      </Title>
      {props.tenants.length === 0 ? (
        <EmptyState title="None yet">{props.empty}</EmptyState>
      ) : (
        <Table verticalSpacing="xs" aria-labelledby={props.id}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Tenant</Table.Th>
              <Table.Th ta="right">Checks</Table.Th>
              <Table.Th ta="right">Denied</Table.Th>
              <Table.Th ta="right">Denial rate</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {props.tenants.map((tenant) => {
              const checks = tenant.allowed + tenant.denied;
              return (
                <Table.Tr key={tenant.tenantId}>
                  <Table.Td>
                    {tenant.name === null ? (
                      <Text size="sm" c="dimmed">
                        {tenant.tenantId} (deleted)
                      </Text>
                    ) : (
                      <Anchor component={NextLink} href={tenantPath(tenant.tenantId, '')} size="sm">
                        {tenant.name}
                      </Anchor>
                    )}
                  </Table.Td>
                  <Table.Td ta="right">{formatNumber(checks)}</Table.Td>
                  <Table.Td ta="right">{formatNumber(tenant.denied)}</Table.Td>
                  <Table.Td ta="right">
                    {checks > 0 ? `${((tenant.denied / checks) * 100).toFixed(1)} %` : '–'}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
    </Card>
  );
}
