'use client';

import { ActionIcon, Menu } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useMutation } from 'urql';
import { TypedConfirmModal } from '@/components/typed-confirm-modal';
import type { ApiKeyRowFragment } from '@/generated/gql/graphql';
import { apiError } from '@/lib/errors';
import { RevokeApiKeyDocument } from './documents';
import { EditKeyModal } from './edit-key-modal';
import { keyStatus } from './key-status';
import { RotateKeyModal } from './rotate-key-modal';

/** A key row's actions (admins): edit, rotate, revoke; a revoked key has none. */
export function KeyActions({
  apiKey,
  policyChoices,
  onRotated,
}: {
  apiKey: ApiKeyRowFragment;
  policyChoices: string[];
  onRotated: (secret: string, successor: ApiKeyRowFragment) => void;
}) {
  const [dialog, setDialog] = useState<'edit' | 'rotate' | 'revoke'>();
  const [revoked, revoke] = useMutation(RevokeApiKeyDocument);
  const [failure, setFailure] = useState<string>();
  const status = keyStatus(apiKey);
  if (status === 'revoked') return null;

  const submitRevoke = async () => {
    const result = await revoke({ id: apiKey.id });
    if (result.error) {
      setFailure(apiError(result.error).message);
      return;
    }
    setDialog(undefined);
    notifications.show({ message: `${apiKey.name} is revoked.` });
  };

  return (
    <>
      <Menu position="bottom-end">
        <Menu.Target>
          <ActionIcon variant="subtle" aria-label={`Actions for ${apiKey.name}`}>
            <span aria-hidden>⋯</span>
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item onClick={() => setDialog('edit')}>Edit…</Menu.Item>
          {status === 'active' && (
            <Menu.Item onClick={() => setDialog('rotate')}>Rotate…</Menu.Item>
          )}
          <Menu.Divider />
          <Menu.Item color="red" onClick={() => setDialog('revoke')}>
            Revoke…
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      {dialog === 'edit' && (
        <EditKeyModal
          apiKey={apiKey}
          policyChoices={policyChoices}
          onClose={() => setDialog(undefined)}
        />
      )}
      {dialog === 'rotate' && (
        <RotateKeyModal
          apiKey={apiKey}
          onRotated={onRotated}
          onClose={() => setDialog(undefined)}
        />
      )}
      <TypedConfirmModal
        opened={dialog === 'revoke'}
        onClose={() => {
          setFailure(undefined);
          setDialog(undefined);
        }}
        title={`Revoke ${apiKey.name}`}
        word={apiKey.name}
        action="Revoke the key"
        onConfirm={() => void submitRevoke()}
        pending={revoked.fetching}
        failure={failure}
      >
        The data plane refuses it within seconds ({apiKey.prefix}…). A revoked key cannot be used or
        changed again; the list keeps it.
      </TypedConfirmModal>
    </>
  );
}
