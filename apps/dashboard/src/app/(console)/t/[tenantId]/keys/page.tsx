'use client';

import {
  Badge,
  Button,
  Card,
  Group,
  Select,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedCallback, useDisclosure } from '@mantine/hooks';
import { useParams } from 'next/navigation';
import { useState } from 'react';
import { useQuery } from 'urql';
import { PageHeader } from '@/components/page-header';
import { Pager } from '@/components/pager';
import { EmptyState, QueryState } from '@/components/query-state';
import { formatDateTime } from '@/lib/format';
import { useSession } from '@/lib/session';
import { CreateKeyModal } from './_components/create-key-modal';
import { ApiKeysDocument, KeyPolicyChoicesDocument } from './_components/documents';
import { KeyActions } from './_components/key-actions';
import { KeySecretModal } from './_components/key-secret-modal';
import { keyStatus } from './_components/key-status';
import { KeyStatusBadge } from './_components/key-status-badge';
import { KEY_STATUSES, useKeyFilters } from './_hooks/use-key-filters';

// an empty list names no ApiKey: this makes a created key refresh it all the same
const KEYS_CONTEXT = { additionalTypenames: ['ApiKey'] };

export default function ApiKeysPage() {
  const { tenantId } = useParams<{ tenantId: string }>();
  const canWrite = useSession().canWrite(tenantId);
  const { filters, setFilter, setAfter } = useKeyFilters();
  const [search, setSearch] = useState(filters.search);
  const updateSearch = useDebouncedCallback((value: string) => setFilter({ search: value }), 300);
  const [creating, { open, close }] = useDisclosure();
  // a rotated key's new secret, held here: the row that rotated it may leave the list
  const [rotated, setRotated] = useState<{ name: string; secret: string; policies: string[] }>();
  const [policies] = useQuery({ query: KeyPolicyChoicesDocument, variables: { tenantId } });
  const [{ data, fetching, error }] = useQuery({
    query: ApiKeysDocument,
    variables: {
      tenantId,
      filter: { search: filters.search.trim() || null, status: filters.status },
      after: filters.after,
    },
    context: KEYS_CONTEXT,
  });
  const policyChoices = (policies.data?.effectivePolicies ?? []).map((p) => p.name);
  const keys = data?.apiKeys;
  const filtered = Boolean(filters.search || filters.status);

  return (
    <>
      <PageHeader
        title="API keys"
        description="The keys your services send to the data plane (Authorization: Bearer). A secret is shown once, when the key is created or rotated."
        actions={canWrite && <Button onClick={open}>New API key</Button>}
      />
      <Group mb="md" align="flex-end">
        <TextInput
          label="Search"
          placeholder="Name or prefix (sk_live_…)"
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
          data={KEY_STATUSES.map((s) => ({ value: s, label: s.toLowerCase() }))}
          value={filters.status}
          onChange={(value) => setFilter({ status: value as (typeof KEY_STATUSES)[number] | null })}
          w={160}
        />
      </Group>
      <Card withBorder p={0}>
        <QueryState fetching={fetching} error={error} hasData={Boolean(keys)}>
          {keys && keys.nodes.length === 0 ? (
            <EmptyState title={filtered ? 'No key matches' : 'No API keys yet'}>
              {filtered
                ? 'Change the search or the status.'
                : canWrite
                  ? 'Create one with “New API key” for each service that checks limits.'
                  : 'An admin of this tenant creates them.'}
            </EmptyState>
          ) : (
            <Table.ScrollContainer minWidth={880}>
              <Table highlightOnHover verticalSpacing="sm">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Key</Table.Th>
                    <Table.Th>Scopes</Table.Th>
                    <Table.Th>Policies</Table.Th>
                    <Table.Th>Status</Table.Th>
                    <Table.Th>Expires</Table.Th>
                    <Table.Th>Last used</Table.Th>
                    {canWrite && (
                      <Table.Th>
                        <VisuallyHidden>Actions</VisuallyHidden>
                      </Table.Th>
                    )}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {keys?.nodes.map((key) => (
                    <Table.Tr key={key.id}>
                      <Table.Td>
                        <Text fw={600}>{key.name}</Text>
                        <Text size="xs" c="dimmed" ff="monospace">
                          {key.prefix}…
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Group gap={4}>
                          {key.scopes.map((scope) => (
                            <Badge key={scope} variant="light" color="gray">
                              {scope.toLowerCase()}
                            </Badge>
                          ))}
                        </Group>
                      </Table.Td>
                      <Table.Td>
                        {key.policyNames.length === 0 ? (
                          <Text size="sm" c="dimmed">
                            every policy
                          </Text>
                        ) : (
                          <Text size="sm">{key.policyNames.join(', ')}</Text>
                        )}
                      </Table.Td>
                      <Table.Td>
                        <KeyStatusBadge status={keyStatus(key)} />
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">
                          {key.expiresAt ? formatDateTime(key.expiresAt) : 'never'}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">
                          {key.lastUsedAt ? formatDateTime(key.lastUsedAt) : 'never'}
                        </Text>
                      </Table.Td>
                      {canWrite && (
                        <Table.Td>
                          <KeyActions
                            apiKey={key}
                            policyChoices={policyChoices}
                            onRotated={(secret, successor) =>
                              setRotated({
                                name: successor.name,
                                secret,
                                policies: successor.policyNames,
                              })
                            }
                          />
                        </Table.Td>
                      )}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </QueryState>
      </Card>
      <Pager connection={keys} after={filters.after} onAfterChange={setAfter} noun="keys" />
      {rotated && (
        <KeySecretModal
          title={`New secret of ${rotated.name}`}
          secret={rotated.secret}
          keyPolicies={rotated.policies}
          tenantPolicies={policyChoices}
          onClose={() => setRotated(undefined)}
        />
      )}
      {creating && (
        <CreateKeyModal tenantId={tenantId} policyChoices={policyChoices} onClose={close} />
      )}
    </>
  );
}
