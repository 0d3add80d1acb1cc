'use client';

import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useMutation } from 'urql';
import { apiError } from '@/lib/errors';
import { SetUserDisabledDocument } from './documents';

/**
 * Disables an account (confirmed first: its sessions end at once) or enables it again. The API
 * refuses one's own account and the last enabled operator: its message shows in the dialog.
 */
export function UserStatusAction({
  user,
}: {
  user: { id: string; email: string; name: string; disabledAt?: string | null };
}) {
  const [confirming, setConfirming] = useState(false);
  const [failure, setFailure] = useState<string>();
  const [{ fetching }, setDisabled] = useMutation(SetUserDisabledDocument);
  const who = user.name || user.email;

  const close = () => {
    setConfirming(false);
    setFailure(undefined);
  };
  const disable = async () => {
    const result = await setDisabled({ id: user.id, disabled: true });
    if (result.error) {
      setFailure(apiError(result.error).message);
      return;
    }
    close();
    notifications.show({ message: `${who} is disabled: signed out, and cannot sign in.` });
  };
  const enable = async () => {
    const result = await setDisabled({ id: user.id, disabled: false });
    notifications.show(
      result.error
        ? { color: 'red', message: apiError(result.error).message }
        : { message: `${who} is enabled again.` },
    );
  };

  if (user.disabledAt) {
    return (
      <Button
        size="xs"
        variant="light"
        loading={fetching}
        onClick={() => void enable()}
        aria-label={`Enable ${who}`}
      >
        Enable
      </Button>
    );
  }
  return (
    <>
      <Button
        size="xs"
        variant="default"
        onClick={() => setConfirming(true)}
        aria-label={`Disable ${who}`}
      >
        Disable
      </Button>
      <Modal
        opened={confirming}
        onClose={close}
        title={`Disable ${who}`}
        closeButtonProps={{ 'aria-label': 'Close' }}
      >
        <Stack>
          <Text size="sm">
            {user.email} is signed out everywhere at once and cannot sign in, nor reset the
            password, until enabled again. Memberships and invitations stay as they are.
          </Text>
          {failure && (
            <Alert color="red" role="alert" title="Not disabled">
              {failure}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button color="red" loading={fetching} onClick={() => void disable()}>
              Disable the account
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
