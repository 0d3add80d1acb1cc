'use client';

import { ActionIcon, Alert, Button, Group, Menu, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useMutation } from 'urql';
import type { Role } from '@/generated/gql/graphql';
import { apiError } from '@/lib/errors';
import { roleLabel } from '@/lib/roles';
import { ChangeMemberRoleDocument, RemoveMemberDocument } from './documents';
import { TENANT_ROLES } from './roles';

interface MemberRow {
  userId: string;
  tenantId?: string | null;
  name: string;
  email: string;
  role: Role;
}

/** A member's actions (admins): the other role, removal from the tenant. */
export function MemberActions({ member, tenantId }: { member: MemberRow; tenantId: string }) {
  const [removing, setRemoving] = useState(false);
  const [, changeRole] = useMutation(ChangeMemberRoleDocument);
  const [removed, remove] = useMutation(RemoveMemberDocument);
  const [failure, setFailure] = useState<string>();
  const who = member.name || member.email;

  const setRole = async (role: Role) => {
    const result = await changeRole({ input: { tenantId, userId: member.userId, role } });
    notifications.show(
      result.error
        ? { color: 'red', message: apiError(result.error).message }
        : { message: `${who} is now ${roleLabel(role)}.` },
    );
  };
  const submitRemove = async () => {
    setFailure(undefined);
    const result = await remove(
      { tenantId, userId: member.userId },
      { additionalTypenames: ['Member'] },
    );
    if (result.error) {
      setFailure(apiError(result.error).message);
      return;
    }
    setRemoving(false);
    notifications.show({ message: `${who} is removed from the tenant.` });
  };

  return (
    <>
      <Menu position="bottom-end">
        <Menu.Target>
          <ActionIcon variant="subtle" aria-label={`Actions for ${who}`}>
            <span aria-hidden>⋯</span>
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          {TENANT_ROLES.filter((role) => role.value !== member.role).map((role) => (
            <Menu.Item key={role.value} onClick={() => void setRole(role.value)}>
              Make {role.label.toLowerCase()}
            </Menu.Item>
          ))}
          <Menu.Divider />
          <Menu.Item color="red" onClick={() => setRemoving(true)}>
            Remove…
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <Modal
        opened={removing}
        onClose={() => {
          setFailure(undefined);
          setRemoving(false);
        }}
        title={`Remove ${who}`}
      >
        <Stack>
          <Text size="sm">
            {member.email} loses access to this tenant at once, in every session. Their account and
            other memberships stay; invite them again to bring them back.
          </Text>
          {failure && (
            <Alert color="red" role="alert">
              {failure}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setRemoving(false)}>
              Cancel
            </Button>
            <Button color="red" loading={removed.fetching} onClick={() => void submitRemove()}>
              Remove from the tenant
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
