'use client';

import {
  Alert,
  Button,
  Card,
  Group,
  Modal,
  Stack,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMemo, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { Pager } from '@/components/pager';
import { EmptyState, QueryState } from '@/components/query-state';
import { apiError } from '@/lib/errors';
import { formatDateTime } from '@/lib/format';
import { useUserFilters } from '../_hooks/use-user-filters';
import { OperatorInvitationsDocument, RevokeInvitationDocument } from './documents';

interface Invitation {
  id: string;
  email: string;
}

/** Operator invitations not yet accepted, newest first; revoking one kills its link. */
export function OperatorInvitations() {
  const { filters, setAfter } = useUserFilters();
  // an empty list names no Invitation: say which mutations refresh it
  const context = useMemo(() => ({ additionalTypenames: ['Invitation'] }), []);
  const [{ data, fetching, error }] = useQuery({
    query: OperatorInvitationsDocument,
    variables: { after: filters.after },
    context,
  });
  const [revoking, setRevoking] = useState<Invitation>();
  const [failure, setFailure] = useState<string>();
  const [revoked, revoke] = useMutation(RevokeInvitationDocument);
  const invitations = data?.invitations;

  const close = () => {
    setRevoking(undefined);
    setFailure(undefined);
  };
  const submitRevoke = async (invitation: Invitation) => {
    const result = await revoke({ id: invitation.id }, context);
    if (result.error) {
      setFailure(apiError(result.error).message);
      return;
    }
    close();
    notifications.show({ message: `The invitation of ${invitation.email} is revoked.` });
  };

  return (
    <>
      <Card withBorder p={0}>
        <QueryState fetching={fetching} error={error} hasData={Boolean(invitations)}>
          {invitations && invitations.nodes.length === 0 ? (
            <EmptyState title="No pending invitations">
              An operator invitation shows here until it is accepted, revoked or expires.
            </EmptyState>
          ) : (
            <Table.ScrollContainer minWidth={600}>
              <Table highlightOnHover verticalSpacing="sm">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Email</Table.Th>
                    <Table.Th>Sent</Table.Th>
                    <Table.Th>Link expires</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>Actions</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {invitations?.nodes.map((invitation) => (
                    <Table.Tr key={invitation.id}>
                      <Table.Td>{invitation.email}</Table.Td>
                      <Table.Td>{formatDateTime(invitation.createdAt)}</Table.Td>
                      <Table.Td>{formatDateTime(invitation.expiresAt)}</Table.Td>
                      <Table.Td ta="right">
                        <Button
                          size="xs"
                          variant="default"
                          onClick={() => setRevoking(invitation)}
                          aria-label={`Revoke the invitation of ${invitation.email}`}
                        >
                          Revoke
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </QueryState>
      </Card>
      <Pager
        connection={invitations}
        after={filters.after}
        onAfterChange={setAfter}
        noun="invitations"
      />
      <Modal
        opened={revoking !== undefined}
        onClose={close}
        title="Revoke the invitation"
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        <Stack>
          <Text size="sm">
            The link mailed to {revoking?.email} stops working. You can invite the address again.
          </Text>
          {failure && (
            <Alert color="red" role="alert">
              {failure}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button
              color="red"
              loading={revoked.fetching}
              onClick={() => revoking && void submitRevoke(revoking)}
            >
              Revoke the invitation
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
