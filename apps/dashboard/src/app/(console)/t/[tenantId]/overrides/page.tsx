'use client';

import {
  Badge,
  Button,
  Card,
  Group,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useParams } from 'next/navigation';
import { useState } from 'react';
import { useQuery } from 'urql';
import { CountersResetList, type CounterResetView } from '@/components/counters-reset-list';
import { PageHeader } from '@/components/page-header';
import { Pager } from '@/components/pager';
import { EmptyState, QueryState } from '@/components/query-state';
import { formatDateTime } from '@/lib/format';
import { describeRuleChanges } from '@/lib/rule-changes';
import { useSession } from '@/lib/session';
import { DeleteOverrideModal } from './_components/delete-override-modal';
import { OverridablePoliciesDocument, OverridesDocument } from './_components/documents';
import {
  OverrideFormModal,
  type OverrideRow,
  type OverrideSaved,
} from './_components/override-form-modal';

import { useOverrideFilters } from './_hooks/use-override-filters';

const LIST_CONTEXT = { additionalTypenames: ['Override'] };

type Dialog =
  | { kind: 'create'; preset?: { policy: string; identifier: string } }
  | { kind: 'edit' | 'delete'; override: OverrideRow };

export default function OverridesPage() {
  const { tenantId } = useParams<{ tenantId: string }>();
  const { canWrite, isOperator } = useSession();
  const writer = canWrite(tenantId);
  const { filters, setFilter, setAfter, dismissNew } = useOverrideFilters();
  const [search, setSearch] = useState(filters.search);
  const updateSearch = useDebouncedCallback((value: string) => setFilter({ search: value }), 300);
  const [dialog, setDialog] = useState<Dialog>();
  const [resets, setResets] = useState<readonly CounterResetView[]>([]);
  const [policies] = useQuery({ query: OverridablePoliciesDocument, variables: { tenantId } });
  const [{ data, fetching, error }] = useQuery({
    query: OverridesDocument,
    // an empty list names no Override, yet a new override must refresh it
    context: LIST_CONTEXT,
    variables: {
      tenantId,
      search: filters.search.trim() || null,
      policy: filters.policy,
      includeExpired: filters.expired,
      after: filters.after,
    },
  });
  const policyList = policies.data?.effectivePolicies ?? [];
  const overrides = data?.overrides;
  const filtered = Boolean(filters.search || filters.policy);

  // a form the URL asks for (from the request log), once the policies are known
  const requested: Dialog | undefined =
    writer && filters.new && policies.data
      ? { kind: 'create', preset: { policy: filters.new, identifier: filters.for ?? '' } }
      : undefined;
  const shown = dialog ?? requested;
  const closeDialog = () => {
    setDialog(undefined);
    if (requested) dismissNew();
  };

  const saved = ({ message, countersReset }: OverrideSaved) => {
    closeDialog();
    setResets(countersReset);
    notifications.show({ message });
  };

  return (
    <>
      <PageHeader
        title="Overrides"
        description="Other limits for one identifier, or for every identifier starting with a prefix (premium_*): a bigger burst for a customer, a tighter one for an abuser, until a date if you like."
        actions={
          writer && (
            <Button onClick={() => setDialog({ kind: 'create' })} disabled={!policies.data}>
              New override
            </Button>
          )
        }
      />
      <Stack gap="md">
        <CountersResetList resets={resets} onClose={() => setResets([])} />
        <Group align="flex-end">
          <TextInput
            label="Search"
            placeholder="Part of the identifier"
            value={search}
            onChange={(event) => {
              setSearch(event.currentTarget.value);
              updateSearch(event.currentTarget.value);
            }}
            w={260}
          />
          <Select
            label="Policy"
            placeholder="Any"
            clearable
            data={policyList.map((p) => p.name)}
            value={filters.policy}
            onChange={(value) => setFilter({ policy: value })}
            w={200}
          />
          <Switch
            label="Show expired"
            checked={filters.expired}
            onChange={(event) => setFilter({ expired: event.currentTarget.checked })}
            mb={8}
          />
        </Group>
        <Card withBorder p={0}>
          <QueryState fetching={fetching} error={error} hasData={Boolean(overrides)}>
            {overrides && overrides.nodes.length === 0 ? (
              <EmptyState title={filtered ? 'No override matches' : 'No overrides yet'}>
                {filtered
                  ? 'Change the search or the policy.'
                  : filters.expired
                    ? 'Every identifier gets its policies’ values.'
                    : `No active override: every identifier gets its policies’ values.${
                        writer ? ' Create one with “New override”.' : ''
                      } Expired ones are listed with “Show expired”.`}
              </EmptyState>
            ) : (
              <Table.ScrollContainer minWidth={860}>
                <Table verticalSpacing="sm">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Applies to</Table.Th>
                      <Table.Th>Policy</Table.Th>
                      <Table.Th>Changes</Table.Th>
                      <Table.Th>Expires</Table.Th>
                      <Table.Th>Reason</Table.Th>
                      {writer && (
                        <Table.Th>
                          <VisuallyHidden>Actions</VisuallyHidden>
                        </Table.Th>
                      )}
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {overrides?.nodes.map((override) => (
                      <Table.Tr key={override.id}>
                        <Table.Td>
                          <Text ff="monospace" size="sm" fw={600}>
                            {override.identifier}
                          </Text>
                          <Text size="xs" c="dimmed">
                            {override.match === 'PREFIX' ? 'prefix' : 'exact identifier'}
                          </Text>
                        </Table.Td>
                        <Table.Td>{override.policy}</Table.Td>
                        <Table.Td>
                          {describeRuleChanges(override.rules).map((line) => (
                            <Text key={line} size="sm">
                              {line}
                            </Text>
                          ))}
                        </Table.Td>
                        <Table.Td>
                          {override.expiresAt ? (
                            <Stack gap={2} align="flex-start">
                              <Text size="sm">{formatDateTime(override.expiresAt)}</Text>
                              {override.expired && (
                                <Badge color="gray" variant="light">
                                  expired
                                </Badge>
                              )}
                            </Stack>
                          ) : (
                            <Text size="sm" c="dimmed">
                              never
                            </Text>
                          )}
                        </Table.Td>
                        <Table.Td maw={240}>
                          <Text size="sm" lineClamp={2} title={override.reason}>
                            {override.reason || '—'}
                          </Text>
                        </Table.Td>
                        {writer && (
                          <Table.Td>
                            <Group gap={4} justify="flex-end" wrap="nowrap">
                              <Button
                                size="xs"
                                variant="light"
                                aria-label={`Edit the override for ${override.identifier} (${override.policy})`}
                                onClick={() => setDialog({ kind: 'edit', override })}
                              >
                                Edit
                              </Button>
                              <Button
                                size="xs"
                                variant="subtle"
                                color="red"
                                aria-label={`Delete the override for ${override.identifier} (${override.policy})`}
                                onClick={() => setDialog({ kind: 'delete', override })}
                              >
                                Delete
                              </Button>
                            </Group>
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
      </Stack>
      <Pager
        connection={overrides}
        after={filters.after}
        onAfterChange={setAfter}
        noun={filters.expired ? 'overrides' : 'active overrides'}
      />
      {shown && shown.kind !== 'delete' && (
        <OverrideFormModal
          tenantId={tenantId}
          policies={policyList}
          operator={isOperator}
          existing={shown.kind === 'edit' ? shown.override : undefined}
          preset={shown.kind === 'create' ? shown.preset : undefined}
          onClose={closeDialog}
          onSaved={saved}
        />
      )}
      {shown?.kind === 'delete' && (
        <DeleteOverrideModal
          override={shown.override}
          policy={policyList.find((p) => p.id === shown.override.policyId)}
          onClose={closeDialog}
          onDeleted={saved}
        />
      )}
    </>
  );
}
