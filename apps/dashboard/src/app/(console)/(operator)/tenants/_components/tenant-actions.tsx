'use client';

import { ActionIcon, Button, Group, Menu, Modal, Select, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import NextLink from 'next/link';
import { useState } from 'react';
import { useMutation } from 'urql';
import { tenantPath } from '@/components/navigation';
import { TypedConfirmModal } from '@/components/typed-confirm-modal';
import { apiError } from '@/lib/errors';
import { DeleteTenantDocument, MoveTenantDocument, SetTenantStatusDocument } from './documents';

interface TenantRow {
  id: string;
  name: string;
  slug: string;
  status: string;
  plan: { id: string; name: string };
}

/** A tenant row's actions: open it, move it to another plan, suspend or resume, delete. */
export function TenantActions({
  tenant,
  plans,
}: {
  tenant: TenantRow;
  plans: { id: string; name: string }[];
}) {
  const [dialog, setDialog] = useState<'plan' | 'delete'>();
  const [planId, setPlanId] = useState<string | null>(tenant.plan.id);
  const [moved, move] = useMutation(MoveTenantDocument);
  const [, setStatus] = useMutation(SetTenantStatusDocument);
  const [deleted, remove] = useMutation(DeleteTenantDocument);
  const [failure, setFailure] = useState<string>();
  const suspended = tenant.status === 'SUSPENDED';

  const toggleStatus = async () => {
    const result = await setStatus({ id: tenant.id, status: suspended ? 'ACTIVE' : 'SUSPENDED' });
    notifications.show(
      result.error
        ? { color: 'red', message: apiError(result.error).message }
        : { message: `${tenant.name} is ${suspended ? 'active again' : 'suspended'}.` },
    );
  };
  const submitMove = async () => {
    if (!planId) return;
    const result = await move({ id: tenant.id, planId });
    if (result.error) {
      setFailure(apiError(result.error).message);
      return;
    }
    setDialog(undefined);
    notifications.show({
      message: `${tenant.name} moved to ${result.data?.updateTenant.plan.name}.`,
    });
  };
  const submitDelete = async () => {
    const result = await remove({ id: tenant.id }, { additionalTypenames: ['Tenant'] });
    if (result.error) {
      setFailure(apiError(result.error).message);
      return;
    }
    setDialog(undefined);
    notifications.show({ message: `${tenant.name} is deleted.` });
  };

  return (
    <>
      <Group gap={4} justify="flex-end" wrap="nowrap">
        <Button component={NextLink} href={tenantPath(tenant.id, '')} size="xs" variant="light">
          Open
        </Button>
        <Menu position="bottom-end">
          <Menu.Target>
            <ActionIcon variant="subtle" aria-label={`More actions for ${tenant.name}`}>
              <span aria-hidden>⋯</span>
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item onClick={() => setDialog('plan')}>Change plan…</Menu.Item>
            <Menu.Item onClick={() => void toggleStatus()}>
              {suspended ? 'Resume' : 'Suspend'}
            </Menu.Item>
            <Menu.Divider />
            <Menu.Item color="red" onClick={() => setDialog('delete')}>
              Delete…
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </Group>
      <Modal opened={dialog === 'plan'} onClose={() => setDialog(undefined)} title="Change plan">
        <Stack>
          <Text size="sm">
            {tenant.name}&apos;s changes and overrides follow to the new plan&apos;s policies of the
            same names; those with no counterpart are removed.
          </Text>
          {failure && (
            <Text c="red" size="sm" role="alert">
              {failure}
            </Text>
          )}
          <Select
            label="Plan"
            data={plans.map((p) => ({ value: p.id, label: p.name }))}
            value={planId}
            onChange={setPlanId}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDialog(undefined)}>
              Cancel
            </Button>
            <Button
              loading={moved.fetching}
              disabled={!planId || planId === tenant.plan.id}
              onClick={() => void submitMove()}
            >
              Move
            </Button>
          </Group>
        </Stack>
      </Modal>
      <TypedConfirmModal
        opened={dialog === 'delete'}
        onClose={() => setDialog(undefined)}
        title={`Delete ${tenant.name}`}
        word={tenant.slug}
        action="Delete the tenant"
        onConfirm={() => void submitDelete()}
        pending={deleted.fetching}
        failure={failure}
      >
        Its keys stop working at once, its policies, counters, usage and webhook endpoints are
        deleted. The audit log keeps its history. This cannot be undone.
      </TypedConfirmModal>
    </>
  );
}
