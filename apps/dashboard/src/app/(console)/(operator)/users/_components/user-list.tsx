'use client';

import { Badge, Card, Group, Table, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { useState } from 'react';
import { useQuery } from 'urql';
import { Pager } from '@/components/pager';
import { EmptyState, QueryState } from '@/components/query-state';
import { formatDateTime } from '@/lib/format';
import { useSession } from '@/lib/session';
import { useUserFilters } from '../_hooks/use-user-filters';
import { UsersDocument } from './documents';
import { Memberships } from './memberships';
import { UserStatusAction } from './user-status-action';

/** Every account, found by part of its email or name: its access, and disabling it. */
export function UserList() {
  const { user: me } = useSession();
  const { filters, setSearch, setAfter } = useUserFilters();
  const [search, setSearchText] = useState(filters.search);
  const updateSearch = useDebouncedCallback(setSearch, 300);
  const [{ data, fetching, error }] = useQuery({
    query: UsersDocument,
    variables: { search: filters.search.trim() || null, after: filters.after },
  });
  const users = data?.users;

  return (
    <>
      <TextInput
        label="Search"
        placeholder="Email or name"
        value={search}
        onChange={(event) => {
          setSearchText(event.currentTarget.value);
          updateSearch(event.currentTarget.value);
        }}
        w={300}
        mb="md"
      />
      <Card withBorder p={0}>
        <QueryState fetching={fetching} error={error} hasData={Boolean(users)}>
          {users && users.nodes.length === 0 ? (
            <EmptyState title={filters.search ? 'No user matches' : 'No users yet'}>
              {filters.search
                ? 'Search by another part of the email address or name.'
                : 'Users appear here once they accept an invitation.'}
            </EmptyState>
          ) : (
            <Table.ScrollContainer minWidth={760}>
              <Table highlightOnHover verticalSpacing="sm">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>User</Table.Th>
                    <Table.Th>Access</Table.Th>
                    <Table.Th>Status</Table.Th>
                    <Table.Th>Account created</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>Actions</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {users?.nodes.map((user) => (
                    <Table.Tr key={user.id}>
                      <Table.Td>
                        <Group gap="xs" wrap="nowrap">
                          <Text fw={600} size="sm">
                            {user.name || user.email}
                          </Text>
                          {user.id === me.id && (
                            <Badge size="xs" variant="outline">
                              you
                            </Badge>
                          )}
                        </Group>
                        {user.name && (
                          <Text size="xs" c="dimmed">
                            {user.email}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td>
                        <Memberships memberships={user.memberships} />
                      </Table.Td>
                      <Table.Td>
                        {user.disabledAt ? (
                          <>
                            <Badge color="red" variant="dot">
                              disabled
                            </Badge>
                            <Text size="xs" c="dimmed">
                              since {formatDateTime(user.disabledAt)}
                            </Text>
                          </>
                        ) : (
                          <Badge color="green" variant="dot">
                            active
                          </Badge>
                        )}
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{formatDateTime(user.createdAt)}</Text>
                      </Table.Td>
                      <Table.Td ta="right">
                        <UserStatusAction user={user} />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </QueryState>
      </Card>
      <Pager connection={users} after={filters.after} onAfterChange={setAfter} noun="users" />
    </>
  );
}
