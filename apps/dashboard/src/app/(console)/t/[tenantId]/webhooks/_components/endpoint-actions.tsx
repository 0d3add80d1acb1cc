'use client';

import { Button, Group } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useMutation } from 'urql';
import { tenantPath } from '@/components/navigation';
import { TypedConfirmModal } from '@/components/typed-confirm-modal';
import type { WebhookEndpointFieldsFragment } from '@/generated/gql/graphql';
import { apiError } from '@/lib/errors';
import { DeleteWebhookEndpointDocument, UpdateWebhookEndpointDocument } from './documents';
import { EditEndpointModal } from './edit-endpoint-modal';
import { RotateSecretModal } from './rotate-secret-modal';

/** An endpoint's actions (admins): edit, enable or disable, rotate its secret, delete. */
export function EndpointActions({ endpoint }: { endpoint: WebhookEndpointFieldsFragment }) {
  const router = useRouter();
  const [dialog, setDialog] = useState<'edit' | 'rotate' | 'delete'>();
  const [toggled, update] = useMutation(UpdateWebhookEndpointDocument);
  const [deleted, remove] = useMutation(DeleteWebhookEndpointDocument);
  const [failure, setFailure] = useState<string>();

  const toggle = async () => {
    const enabled = !endpoint.enabled;
    const result = await update({ input: { id: endpoint.id, enabled } });
    notifications.show(
      result.error
        ? { color: 'red', message: apiError(result.error).message }
        : { message: `${endpoint.name} is ${enabled ? 'enabled' : 'disabled'}.` },
    );
  };
  const submitDelete = async () => {
    const result = await remove({ id: endpoint.id }, { additionalTypenames: ['WebhookEndpoint'] });
    if (result.error) {
      setFailure(apiError(result.error).message);
      return;
    }
    notifications.show({ message: `${endpoint.name} is deleted.` });
    router.push(tenantPath(endpoint.tenantId, '/webhooks'));
  };

  return (
    <>
      <Group gap="sm">
        <Button variant="default" onClick={() => setDialog('edit')}>
          Edit
        </Button>
        <Button variant="default" loading={toggled.fetching} onClick={() => void toggle()}>
          {endpoint.enabled ? 'Disable' : 'Enable'}
        </Button>
        <Button variant="default" onClick={() => setDialog('rotate')}>
          Rotate secret
        </Button>
        <Button variant="light" color="red" onClick={() => setDialog('delete')}>
          Delete
        </Button>
      </Group>
      {dialog === 'edit' && (
        <EditEndpointModal endpoint={endpoint} onClose={() => setDialog(undefined)} />
      )}
      {dialog === 'rotate' && (
        <RotateSecretModal endpoint={endpoint} onClose={() => setDialog(undefined)} />
      )}
      <TypedConfirmModal
        opened={dialog === 'delete'}
        onClose={() => {
          setFailure(undefined);
          setDialog(undefined);
        }}
        title={`Delete ${endpoint.name}`}
        word={endpoint.name}
        action="Delete the endpoint"
        onConfirm={() => void submitDelete()}
        pending={deleted.fetching}
        failure={failure}
      >
        Its delivery records go with it, and events still queued are dropped. Events sent to it
        afterwards are refused. This cannot be undone.
      </TypedConfirmModal>
    </>
  );
}
