'use client';

import { Button, Group, Modal, Stack } from '@mantine/core';
import { KeySecret } from './key-secret';

/** A rotated key's new secret, shown once; it is gone when the dialog closes. */
export function KeySecretModal({
  title,
  secret,
  keyPolicies,
  tenantPolicies,
  onClose,
}: {
  title: string;
  secret: string;
  keyPolicies: string[];
  tenantPolicies: string[];
  onClose: () => void;
}) {
  return (
    // the secret must not vanish by a stray click beside the dialog
    <Modal opened onClose={onClose} title={title} size="xl" closeOnClickOutside={false}>
      <Stack>
        <KeySecret secret={secret} keyPolicies={keyPolicies} tenantPolicies={tenantPolicies} />
        <Group justify="flex-end">
          <Button onClick={onClose}>I have copied it</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
