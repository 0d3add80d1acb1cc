'use client';

import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useMutation } from 'urql';
import { apiError } from '@/lib/errors';
import { ResetIdentifierDocument } from './documents';

/** Confirms a reset of the identifier's counters under the policy: every rule starts afresh. */
export function ResetCountersModal({
  tenantId,
  policy,
  identifier,
  onClose,
  onReset,
}: {
  tenantId: string;
  policy: string;
  identifier: string;
  onClose: () => void;
  onReset: (deleted: number) => void;
}) {
  const [{ fetching }, reset] = useMutation(ResetIdentifierDocument);
  const [failure, setFailure] = useState<string>();
  const confirm = async () => {
    const result = await reset({ input: { tenantId, policy, identifier } });
    if (result.error) {
      setFailure(apiError(result.error).message);
      return;
    }
    onReset(result.data?.resetIdentifier.deleted ?? 0);
  };
  return (
    <Modal
      opened
      onClose={onClose}
      closeButtonProps={{ 'aria-label': 'Close' }}
      title={`Reset the counters of ${identifier}`}
    >
      <Stack>
        <Text size="sm">
          Every rule of {policy} forgets what{' '}
          <Text span ff="monospace" size="sm">
            {identifier}
          </Text>{' '}
          has spent: its next check starts on a full quota, and the concurrency slots it holds are
          freed. The reset is recorded in the audit log.
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
          <Button color="red" loading={fetching} onClick={() => void confirm()}>
            Reset the counters
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
