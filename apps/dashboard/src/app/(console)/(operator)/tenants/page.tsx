'use client';

import { Button, Card, Group, Select, Table, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { useDebouncedCallback, useDisclosure } from '@mantine/hooks';
import NextLink from 'next/link';
import { useState } from 'react';
import { useQuery } from 'urql';
import { tenantPath } from '@/components/navigation';
import { PageHeader } from '@/components/page-header';
import { Pager } from '@/components/pager';
import { EmptyState, QueryState } from '@/components/query-state';
import { TenantStatusBadge } from '@/components/tenant-status-badge';
import { formatDateTime } from '@/lib/format';
import { CreateTenantModal } from './_components/create-tenant-modal';
import { PlanChoicesDocument, TenantsDocument } from './_components/documents';
import { TenantActions } from './_components/tenant-actions';
import { TENANT_STATUSES, useTenantFilters } from './_hooks/use-tenant-filters';

export default function TenantsPage() {
  const { filters, setFilter, setAfter } = useTenantFilters();
  const [search, setSearch] = useState(filters.search);
  const updateSearch = useDebouncedCallback((value: string) => setFilter({ search: value }), 300);
  const [creating, { open, close }] = useDisclosure();
  const [plans] = useQuery({ query: PlanChoicesDocument });
  const [{ data, fetching, error }] = useQuery({
    query: TenantsDocument,
    variables: {
      search: filters.search.trim() || null,
      status: filters.status,
      planId: filters.plan,
      after: filters.after,
    },
  });
  const planList = plans.data?.plans.nodes ?? [];
  const tenants = data?.tenants;
  const filtered = Boolean(filters.search || filters.status || filters.plan);

  return (
    <>
      <PageHeader
        title="Tenants"
        description="Every customer of the platform: its plan, its status, and a way in to act as its admin would."
        actions={
          <Button onClick={open} disabled={planList.length === 0}>
            New tenant
          </Button>
        }
      />
      <Group mb="md" align="flex-end">
        <TextInput
          label="Search"
          placeholder="Name or slug"
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            updateSearch(event.currentTarget.value);
          }}
          w={260}
        />
        <Select
          label="Status"
          placeholder="Any"
          clearable
          data={TENANT_STATUSES.map((s) => ({ value: s, label: s.toLowerCase() }))}
          value={filters.status}
          onChange={(value) =>
            setFilter({ status: value as (typeof TENANT_STATUSES)[number] | null })
          }
          w={160}
        />
        <Select
          label="Plan"
          placeholder="Any"
          clearable
          data={planList.map((p) => ({ value: p.id, label: p.name }))}
          value={filters.plan}
          onChange={(value) => setFilter({ plan: value })}
          w={200}
        />
      </Group>
      <Card withBorder p={0}>
        <QueryState fetching={fetching} error={error} hasData={Boolean(tenants)}>
          {tenants && tenants.nodes.length === 0 ? (
            <EmptyState title={filtered ? 'No tenant matches' : 'No tenants yet'}>
              {filtered
                ? 'Change the search or the filters.'
                : 'Create the first with “New tenant”: it starts with its plan’s policies.'}
            </EmptyState>
          ) : (
            <Table.ScrollContainer minWidth={720}>
              <Table highlightOnHover verticalSpacing="sm">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Tenant</Table.Th>
                    <Table.Th>Plan</Table.Th>
                    <Table.Th>Status</Table.Th>
                    <Table.Th>Created</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>Actions</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {tenants?.nodes.map((tenant) => (
                    <Table.Tr key={tenant.id}>
                      <Table.Td>
                        <Text component={NextLink} href={tenantPath(tenant.id, '')} fw={600}>
                          {tenant.name}
                        </Text>
                        <Text size="xs" c="dimmed">
                          {tenant.slug}
                        </Text>
                      </Table.Td>
                      <Table.Td>{tenant.plan.name}</Table.Td>
                      <Table.Td>
                        <TenantStatusBadge status={tenant.status} />
                      </Table.Td>
                      <Table.Td>{formatDateTime(tenant.createdAt)}</Table.Td>
                      <Table.Td>
                        <TenantActions tenant={tenant} plans={planList} />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </QueryState>
      </Card>
      <Pager connection={tenants} after={filters.after} onAfterChange={setAfter} noun="tenants" />
      {creating && <CreateTenantModal opened onClose={close} plans={planList} />}
    </>
  );
}
