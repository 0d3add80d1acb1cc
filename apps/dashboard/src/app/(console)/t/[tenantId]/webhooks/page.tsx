'use client';

import { Button, Card, Group, Select, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedCallback, useDisclosure } from '@mantine/hooks';
import NextLink from 'next/link';
import { useParams } from 'next/navigation';
import { useState } from 'react';
import { useQuery } from 'urql';
import { tenantPath } from '@/components/navigation';
import { PageHeader } from '@/components/page-header';
import { EmptyState, QueryState } from '@/components/query-state';
import { formatNumber } from '@/lib/format';
import { useSession } from '@/lib/session';
import { CreateEndpointModal } from './_components/create-endpoint-modal';
import { WebhookEndpointsDocument } from './_components/documents';
import { EnabledBadge } from './_components/enabled-badge';
import {
  ENDPOINT_STATES,
  filterEndpoints,
  useEndpointFilters,
} from './_hooks/use-endpoint-filters';

// an empty list names no WebhookEndpoint: this makes a created one refresh it all the same
const ENDPOINTS_CONTEXT = { additionalTypenames: ['WebhookEndpoint'] };

export default function WebhooksPage() {
  const { tenantId } = useParams<{ tenantId: string }>();
  const canWrite = useSession().canWrite(tenantId);
  const { filters, setFilter } = useEndpointFilters();
  const [search, setSearch] = useState(filters.search);
  const updateSearch = useDebouncedCallback((value: string) => setFilter({ search: value }), 200);
  const [creating, { open, close }] = useDisclosure();
  const [{ data, fetching, error }] = useQuery({
    query: WebhookEndpointsDocument,
    variables: { tenantId },
    context: ENDPOINTS_CONTEXT,
  });
  const all = data?.webhookEndpoints;
  const shown = all ? filterEndpoints(all, filters) : [];
  const filtered = Boolean(filters.search || filters.state);

  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Endpoints that receive events, each through its own queue: at most its leak rate per second, signed with its secret, retried up to its max attempts."
        actions={canWrite && <Button onClick={open}>New endpoint</Button>}
      />
      <Group mb="md" align="flex-end">
        <TextInput
          label="Search"
          placeholder="Name or URL"
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            updateSearch(event.currentTarget.value);
          }}
          w={260}
        />
        <Select
          label="State"
          placeholder="Any"
          clearable
          data={[...ENDPOINT_STATES]}
          value={filters.state}
          onChange={(value) =>
            setFilter({ state: value as (typeof ENDPOINT_STATES)[number] | null })
          }
          w={160}
        />
      </Group>
      <Card withBorder p={0}>
        <QueryState fetching={fetching} error={error} hasData={Boolean(all)}>
          {all && shown.length === 0 ? (
            <EmptyState title={filtered ? 'No endpoint matches' : 'No webhook endpoints yet'}>
              {filtered
                ? 'Change the search or the state.'
                : canWrite
                  ? 'Add one with “New endpoint”: a public URL that receives your events.'
                  : 'An admin of this tenant adds them.'}
            </EmptyState>
          ) : (
            <Table.ScrollContainer minWidth={760}>
              <Table highlightOnHover verticalSpacing="sm">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Endpoint</Table.Th>
                    <Table.Th ta="right">Leak rate</Table.Th>
                    <Table.Th ta="right">Queue capacity</Table.Th>
                    <Table.Th ta="right">Max attempts</Table.Th>
                    <Table.Th>State</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {shown.map((endpoint) => (
                    <Table.Tr key={endpoint.id}>
                      <Table.Td maw={420}>
                        <Text
                          component={NextLink}
                          href={tenantPath(tenantId, `/webhooks/${endpoint.id}`)}
                          fw={600}
                        >
                          {endpoint.name}
                        </Text>
                        <Text size="xs" c="dimmed" truncate="end" title={endpoint.url}>
                          {endpoint.url}
                        </Text>
                      </Table.Td>
                      <Table.Td ta="right">{formatNumber(endpoint.leakRatePerSec)}/s</Table.Td>
                      <Table.Td ta="right">{formatNumber(endpoint.queueCapacity)}</Table.Td>
                      <Table.Td ta="right">{formatNumber(endpoint.maxAttempts)}</Table.Td>
                      <Table.Td>
                        <EnabledBadge enabled={endpoint.enabled} />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </QueryState>
      </Card>
      {all && (
        <Text size="sm" c="dimmed" mt="md">
          {formatNumber(shown.length)} shown of {formatNumber(all.length)} endpoints (at most 50 per
          tenant)
        </Text>
      )}
      {creating && <CreateEndpointModal tenantId={tenantId} onClose={close} />}
    </>
  );
}
