'use client';

import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useMutation } from 'urql';
import type { ApiKeyRowFragment } from '@/generated/gql/graphql';
import { apiError } from '@/lib/errors';
import { RotateApiKeyDocument } from './documents';

/**
 * Confirms the rotation of a key (the old secret stops working with no overlap) and hands the
 * new secret to `onRotated`: the page shows it, since this row may leave the list (the old key
 * is revoked) before anyone has copied it.
 */
export function RotateKeyModal({
  apiKey,
  onRotated,
  onClose,
}: {
  apiKey: ApiKeyRowFragment;
  onRotated: (secret: string, successor: ApiKeyRowFragment) => void;
  onClose: () => void;
}) {
  const [{ fetching }, rotate] = useMutation(RotateApiKeyDocument);
  const [failure, setFailure] = useState<string>();

  const confirm = async () => {
    setFailure(undefined);
    const result = await rotate({ id: apiKey.id }, { additionalTypenames: ['ApiKey'] });
    if (result.error) {
      setFailure(apiError(result.error).message);
      return;
    }
    const payload = result.data?.rotateApiKey;
    if (payload) onRotated(payload.secret, payload.apiKey);
    onClose();
  };

  return (
    <Modal opened onClose={onClose} title={`Rotate ${apiKey.name}`}>
      <Stack>
        <Text size="sm">
          A new key with the same name, scopes, policies and expiry replaces this one. The current
          secret ({apiKey.prefix}…) is refused within seconds, with no overlap: callers still using
          it fail until they switch. For a handover without refusals, create a second key, switch to
          it, then revoke this one.
        </Text>
        {failure && (
          <Alert color="red" role="alert">
            {failure}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button loading={fetching} onClick={() => void confirm()}>
            Rotate the key
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
