'use client';

import { Alert, Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useMutation } from 'urql';
import { apiError } from '@/lib/errors';
import { DeleteOverrideDocument } from './documents';
import type { OverridablePolicy, OverrideRow, OverrideSaved } from './override-form-modal';
import { windowChanges } from './override-rules';

/**
 * Confirms deleting an override: its identifiers go back to the policy's values, and to the
 * policy's window (their counters of that rule start afresh) when it had its own.
 */
export function DeleteOverrideModal({
  override,
  policy,
  onClose,
  onDeleted,
}: {
  override: OverrideRow;
  policy: OverridablePolicy | undefined;
  onClose: () => void;
  onDeleted: (saved: OverrideSaved) => void;
}) {
  const [{ fetching }, remove] = useMutation(DeleteOverrideDocument);
  const [failure, setFailure] = useState<string>();
  const changes = windowChanges(policy?.rules ?? [], override.rules, []);
  const confirm = async () => {
    const result = await remove({ id: override.id }, { additionalTypenames: ['Override'] });
    if (result.error) {
      setFailure(apiError(result.error).message);
      return;
    }
    onDeleted({
      message: `The override for ${override.identifier} is deleted.`,
      countersReset: result.data?.deleteOverride.countersReset ?? [],
    });
  };
  return (
    <Modal
      opened
      onClose={onClose}
      closeButtonProps={{ 'aria-label': 'Close' }}
      title={`Delete the override for ${override.identifier}`}
    >
      <Stack>
        <Text size="sm">
          {override.match === 'PREFIX' ? 'Identifiers starting with ' : 'The identifier '}
          <Text span ff="monospace">
            {override.identifier.replace(/\*$/, '')}
          </Text>{' '}
          get the values of {override.policy} again, from the next check.
        </Text>
        {changes.length > 0 && (
          <Alert color="yellow" title="Counters will start afresh">
            <List size="sm">
              {changes.map((change) => (
                <List.Item key={change.rule}>
                  {change.rule}: window {change.before} → {change.after}
                </List.Item>
              ))}
            </List>
          </Alert>
        )}
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
            Delete the override
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
