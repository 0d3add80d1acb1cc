'use client';

import { Badge, Button, Card, Group, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedCallback, useDisclosure } from '@mantine/hooks';
import NextLink from 'next/link';
import { useState } from 'react';
import { useQuery } from 'urql';
import { PageHeader } from '@/components/page-header';
import { Pager } from '@/components/pager';
import { EmptyState, QueryState } from '@/components/query-state';
import { formatNumber } from '@/lib/format';
import { CreatePlanModal } from './_components/create-plan-modal';
import { PlansDocument } from './_components/documents';
import { usePlanFilters } from './_hooks/use-plan-filters';

export default function PlansPage() {
  const { filters, setSearch, setAfter } = usePlanFilters();
  const [search, setSearchText] = useState(filters.search);
  const updateSearch = useDebouncedCallback(setSearch, 300);
  const [creating, { open, close }] = useDisclosure();
  const [{ data, fetching, error }] = useQuery({
    query: PlansDocument,
    variables: { search: filters.search.trim() || null, after: filters.after },
  });
  const plans = data?.plans;

  return (
    <>
      <PageHeader
        title="Plans"
        description="Price tiers: every tenant on a plan gets its policy templates, and may change what a template opens to it, within its bounds."
        actions={<Button onClick={open}>New plan</Button>}
      />
      <Group mb="md" align="flex-end">
        <TextInput
          label="Search"
          placeholder="Name or slug"
          value={search}
          onChange={(event) => {
            setSearchText(event.currentTarget.value);
            updateSearch(event.currentTarget.value);
          }}
          w={260}
        />
      </Group>
      <Card withBorder p={0}>
        <QueryState fetching={fetching} error={error} hasData={Boolean(plans)}>
          {plans && plans.nodes.length === 0 ? (
            <EmptyState title={filters.search ? 'No plan matches' : 'No plans yet'}>
              {filters.search
                ? 'Change the search.'
                : 'Create the first with “New plan”, then give it policy templates.'}
            </EmptyState>
          ) : (
            <Table.ScrollContainer minWidth={720}>
              <Table highlightOnHover verticalSpacing="sm">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Plan</Table.Th>
                    <Table.Th>Policy templates</Table.Th>
                    <Table.Th ta="right">Tenants</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {plans?.nodes.map((plan) => (
                    <Table.Tr key={plan.id}>
                      <Table.Td>
                        <Text
                          component={NextLink}
                          href={`/plans/${encodeURIComponent(plan.id)}`}
                          fw={600}
                        >
                          {plan.name}
                        </Text>
                        <Text size="xs" c="dimmed">
                          {plan.slug}
                          {plan.description && ` · ${plan.description}`}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        {plan.policies.length === 0 ? (
                          <Text size="sm" c="dimmed">
                            none yet
                          </Text>
                        ) : (
                          <Group gap={4}>
                            {plan.policies.map((policy) => (
                              <Badge key={policy.id} variant="light" tt="none" ff="monospace">
                                {policy.name}
                              </Badge>
                            ))}
                          </Group>
                        )}
                      </Table.Td>
                      <Table.Td ta="right">{formatNumber(plan.tenantCount ?? 0)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </QueryState>
      </Card>
      <Pager connection={plans} after={filters.after} onAfterChange={setAfter} noun="plans" />
      {creating && <CreatePlanModal onClose={close} />}
    </>
  );
}
