'use client';

import {
  Badge,
  Button,
  Card,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedCallback, useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useParams } from 'next/navigation';
import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { PageHeader } from '@/components/page-header';
import { Pager } from '@/components/pager';
import { EmptyState, QueryState } from '@/components/query-state';
import { apiError } from '@/lib/errors';
import { formatDateTime } from '@/lib/format';
import { roleLabel } from '@/lib/roles';
import { useSession } from '@/lib/session';
import {
  InvitationsDocument,
  MembersDocument,
  RevokeInvitationDocument,
} from './_components/documents';
import { InviteModal } from './_components/invite-modal';
import { MemberActions } from './_components/member-actions';
import { useMemberFilters } from './_hooks/use-member-filters';

function RoleBadge({ role }: { role: string }) {
  return (
    <Badge variant="light" color={role === 'TENANT_ADMIN' ? 'indigo' : 'gray'}>
      {roleLabel(role)}
    </Badge>
  );
}

// an empty list names no Member or Invitation: these make a change refresh it all the same
const MEMBERS_CONTEXT = { additionalTypenames: ['Member'] };
const INVITATIONS_CONTEXT = { additionalTypenames: ['Invitation'] };

export default function MembersPage() {
  const { tenantId } = useParams<{ tenantId: string }>();
  const session = useSession();
  const canWrite = session.canWrite(tenantId);
  const { filters, setSearch, setAfter, setInvitationsAfter } = useMemberFilters();
  const [search, setSearchText] = useState(filters.search);
  const updateSearch = useDebouncedCallback(setSearch, 300);
  const [inviting, { open, close }] = useDisclosure();
  const [, revokeInvitation] = useMutation(RevokeInvitationDocument);
  const text = filters.search.trim() || null;
  const [members] = useQuery({
    query: MembersDocument,
    variables: { tenantId, search: text, after: filters.after },
    context: MEMBERS_CONTEXT,
  });
  const [invitations] = useQuery({
    query: InvitationsDocument,
    variables: { tenantId, search: text, after: filters.invitationsAfter },
    context: INVITATIONS_CONTEXT,
  });
  const memberPage = members.data?.members;
  const invitationPage = invitations.data?.invitations;

  const revoke = async (id: string, email: string) => {
    const result = await revokeInvitation({ id }, { additionalTypenames: ['Invitation'] });
    notifications.show(
      result.error
        ? { color: 'red', message: apiError(result.error).message }
        : { message: `The invitation of ${email} is revoked.` },
    );
  };

  return (
    <>
      <PageHeader
        title="Members"
        description="Who may use this tenant's console: admins manage it, viewers read it."
        actions={canWrite && <Button onClick={open}>Invite a member</Button>}
      />
      <TextInput
        label="Search"
        placeholder="Name or email"
        value={search}
        onChange={(event) => {
          setSearchText(event.currentTarget.value);
          updateSearch(event.currentTarget.value);
        }}
        w={260}
        mb="md"
      />
      <Stack gap="xl">
        <section aria-labelledby="members-heading">
          <Title id="members-heading" order={2} size="h4" mb="sm">
            Members
          </Title>
          <Card withBorder p={0}>
            <QueryState
              fetching={members.fetching}
              error={members.error}
              hasData={Boolean(memberPage)}
            >
              {memberPage && memberPage.nodes.length === 0 ? (
                <EmptyState title="No member matches">Change the search.</EmptyState>
              ) : (
                <Table.ScrollContainer minWidth={640}>
                  <Table highlightOnHover verticalSpacing="sm">
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>Member</Table.Th>
                        <Table.Th>Role</Table.Th>
                        <Table.Th>Since</Table.Th>
                        {canWrite && (
                          <Table.Th>
                            <VisuallyHidden>Actions</VisuallyHidden>
                          </Table.Th>
                        )}
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {memberPage?.nodes.map((member) => (
                        <Table.Tr key={member.id}>
                          <Table.Td>
                            <Text fw={600}>
                              {member.name || member.email}
                              {member.userId === session.user.id && (
                                <Text span c="dimmed" fw={400}>
                                  {' '}
                                  (you)
                                </Text>
                              )}
                            </Text>
                            <Text size="xs" c="dimmed">
                              {member.email}
                            </Text>
                          </Table.Td>
                          <Table.Td>
                            <RoleBadge role={member.role} />
                          </Table.Td>
                          <Table.Td>{formatDateTime(member.since)}</Table.Td>
                          {canWrite && (
                            <Table.Td ta="right">
                              <MemberActions member={member} tenantId={tenantId} />
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
          <Pager
            connection={memberPage}
            after={filters.after}
            onAfterChange={setAfter}
            noun="members"
          />
        </section>
        <section aria-labelledby="invitations-heading">
          <Title id="invitations-heading" order={2} size="h4" mb="sm">
            Pending invitations
          </Title>
          <Card withBorder p={0}>
            <QueryState
              fetching={invitations.fetching}
              error={invitations.error}
              hasData={Boolean(invitationPage)}
            >
              {invitationPage && invitationPage.nodes.length === 0 ? (
                <EmptyState title={text ? 'No invitation matches' : 'No pending invitation'}>
                  {text
                    ? 'Change the search.'
                    : canWrite
                      ? 'Invite someone with “Invite a member”: they join once they accept.'
                      : 'Invitations an admin sends wait here until accepted.'}
                </EmptyState>
              ) : (
                <Table.ScrollContainer minWidth={640}>
                  <Table highlightOnHover verticalSpacing="sm">
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th>Email</Table.Th>
                        <Table.Th>Role</Table.Th>
                        <Table.Th>Sent</Table.Th>
                        <Table.Th>Expires</Table.Th>
                        {canWrite && (
                          <Table.Th>
                            <VisuallyHidden>Actions</VisuallyHidden>
                          </Table.Th>
                        )}
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {invitationPage?.nodes.map((invitation) => (
                        <Table.Tr key={invitation.id}>
                          <Table.Td>{invitation.email}</Table.Td>
                          <Table.Td>
                            <RoleBadge role={invitation.role} />
                          </Table.Td>
                          <Table.Td>{formatDateTime(invitation.createdAt)}</Table.Td>
                          <Table.Td>{formatDateTime(invitation.expiresAt)}</Table.Td>
                          {canWrite && (
                            <Table.Td ta="right">
                              <Button
                                size="xs"
                                variant="subtle"
                                color="red"
                                aria-label={`Revoke the invitation of ${invitation.email}`}
                                onClick={() => void revoke(invitation.id, invitation.email)}
                              >
                                Revoke
                              </Button>
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
          <Pager
            connection={invitationPage}
            after={filters.invitationsAfter}
            onAfterChange={setInvitationsAfter}
            noun="invitations"
          />
        </section>
      </Stack>
      {inviting && <InviteModal tenantId={tenantId} onClose={close} />}
    </>
  );
}
