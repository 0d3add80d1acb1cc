'use client';

import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useMutation } from 'urql';
import { apiError } from '@/lib/errors';
import { formatNumber } from '@/lib/format';
import type { PolicySaved } from './change-plan-policy-modal';
import { DeletePolicyDocument } from './documents';
import { OWN_POLICY_CHANGE } from './own-policy-modal';
import type { EffectivePolicyView } from './policy-card';

/**
 * Confirms deleting a policy of the tenant's own: checks naming it find no such policy from the
 * next one, and its overrides go with it.
 */
export function DeletePolicyModal({
  policy,
  onClose,
  onDeleted,
}: {
  policy: EffectivePolicyView;
  onClose: () => void;
  onDeleted: (saved: PolicySaved) => void;
}) {
  const [{ fetching }, remove] = useMutation(DeletePolicyDocument);
  const [failure, setFailure] = useState<string>();
  const overrides = policy.overrides.length;
  const confirm = async () => {
    const result = await remove({ id: policy.id }, OWN_POLICY_CHANGE);
    if (result.error) {
      setFailure(apiError(result.error).message);
      return;
    }
    onDeleted({
      message: `${policy.name} is deleted.`,
      countersReset: result.data?.deletePolicy.countersReset ?? [],
    });
  };
  return (
    <Modal
      opened
      onClose={onClose}
      closeButtonProps={{ 'aria-label': 'Close' }}
      title={`Delete ${policy.name}`}
    >
      <Stack>
        <Text size="sm">
          From the next check, checks naming {policy.name} find no such policy.
          {overrides > 0 &&
            ` Its ${overrides === 1 ? 'override goes' : `${formatNumber(overrides)} overrides go`} with it.`}
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
            Delete the policy
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
