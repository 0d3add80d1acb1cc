'use client';

import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useState, type ReactNode } from 'react';

/**
 * A destructive action confirmed by typing a word (a slug, a name): no one deletes a tenant by a
 * stray click.
 */
export function TypedConfirmModal({
  opened,
  onClose,
  title,
  children,
  word,
  action,
  onConfirm,
  pending,
  failure,
}: {
  opened: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
  word: string;
  action: string;
  onConfirm: () => void;
  pending: boolean;
  failure?: string | undefined;
}) {
  const [typed, setTyped] = useState('');
  const close = () => {
    setTyped('');
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title={title}>
      <Stack>
        <Text size="sm">{children}</Text>
        {failure && (
          <Alert color="red" role="alert">
            {failure}
          </Alert>
        )}
        <TextInput
          label={`Type ${word} to confirm`}
          value={typed}
          onChange={(event) => setTyped(event.currentTarget.value)}
          data-autofocus
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button color="red" disabled={typed !== word} loading={pending} onClick={onConfirm}>
            {action}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
