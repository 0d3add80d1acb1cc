'use client';

import { Badge, Card, Group, Table, Text } from '@mantine/core';
import { useQuery } from 'urql';
import { Pager } from '@/components/pager';
import { EmptyState, QueryState } from '@/components/query-state';
import { formatDateTime } from '@/lib/format';
import { useSession } from '@/lib/session';
import { useUserFilters } from '../_hooks/use-user-filters';
import { OperatorsDocument } from './documents';

/** The platform's operators, by when they became one. */
export function OperatorList() {
  const { user: me } = useSession();
  const { filters, setAfter } = useUserFilters();
  const [{ data, fetching, error }] = useQuery({
    query: OperatorsDocument,
    variables: { after: filters.after },
  });
  const operators = data?.operators;

  return (
    <>
      <Card withBorder p={0}>
        <QueryState fetching={fetching} error={error} hasData={Boolean(operators)}>
          {operators && operators.nodes.length === 0 ? (
            <EmptyState title="No operators">Invite one with “Invite an operator”.</EmptyState>
          ) : (
            <Table.ScrollContainer minWidth={600}>
              <Table highlightOnHover verticalSpacing="sm">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Name</Table.Th>
                    <Table.Th>Email</Table.Th>
                    <Table.Th>Operator since</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {operators?.nodes.map((operator) => (
                    <Table.Tr key={operator.id}>
                      <Table.Td>
                        <Group gap="xs" wrap="nowrap">
                          <Text fw={600} size="sm">
                            {operator.name || '—'}
                          </Text>
                          {operator.userId === me.id && (
                            <Badge size="xs" variant="outline">
                              you
                            </Badge>
                          )}
                        </Group>
                      </Table.Td>
                      <Table.Td>{operator.email}</Table.Td>
                      <Table.Td>{formatDateTime(operator.since)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </QueryState>
      </Card>
      <Pager
        connection={operators}
        after={filters.after}
        onAfterChange={setAfter}
        noun="operators"
      />
    </>
  );
}
