'use client';

import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useMutation } from 'urql';
import type { ApiKeyRowFragment } from '@/generated/gql/graphql';
import { apiError } from '@/lib/errors';
import { RotateApiKeyDocument } from './documents';
import { KeySecret } from './key-secret';

/**
 * Replaces a key by a new one with the same settings: confirmed first (the old secret stops
 * working with no overlap), then the new secret shown once.
 */
export function RotateKeyModal({
  apiKey,
  tenantPolicies,
  onClose,
}: {
  apiKey: ApiKeyRowFragment;
  tenantPolicies: string[];
  onClose: () => void;
}) {
  const [{ fetching }, rotate] = useMutation(RotateApiKeyDocument);
  const [failure, setFailure] = useState<string>();
  const [secret, setSecret] = useState<string>();

  const confirm = async () => {
    setFailure(undefined);
    const result = await rotate({ id: apiKey.id }, { additionalTypenames: ['ApiKey'] });
    if (result.error) {
      setFailure(apiError(result.error).message);
      return;
    }
    setSecret(result.data?.rotateApiKey.secret);
  };

  return (
    <Modal
      opened
      onClose={onClose}
      title={secret ? `New secret of ${apiKey.name}` : `Rotate ${apiKey.name}`}
      size="lg"
      closeOnClickOutside={!secret}
    >
      {secret ? (
        <Stack>
          <KeySecret
            secret={secret}
            keyPolicies={apiKey.policyNames}
            tenantPolicies={tenantPolicies}
          />
          <Group justify="flex-end">
            <Button onClick={onClose}>I have copied it</Button>
          </Group>
        </Stack>
      ) : (
        <Stack>
          <Text size="sm">
            A new key with the same name, scopes, policies and expiry replaces this one. The current
            secret ({apiKey.prefix}…) is refused within seconds, with no overlap: callers still
            using it fail until they switch. For a handover without refusals, create a second key,
            switch to it, then revoke this one.
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
            <Button color="orange" loading={fetching} onClick={() => void confirm()}>
              Rotate the key
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
