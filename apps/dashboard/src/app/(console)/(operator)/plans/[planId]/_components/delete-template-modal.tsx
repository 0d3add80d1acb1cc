'use client';

import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useMutation } from 'urql';
import { apiError } from '@/lib/errors';
import { DeletePlanPolicyDocument } from '../../_components/documents';
import type { TemplateChange } from './change-result';

/** Confirms deleting a template: every tenant on the plan loses the policy. */
export function DeleteTemplateModal({
  template,
  tenantCount,
  onClose,
  onDeleted,
}: {
  template: { id: string; name: string };
  tenantCount: number;
  onClose: () => void;
  onDeleted: (change: TemplateChange) => void;
}) {
  const [{ fetching }, remove] = useMutation(DeletePlanPolicyDocument);
  const [failure, setFailure] = useState<string>();
  const confirm = async () => {
    const result = await remove({ id: template.id }, { additionalTypenames: ['Policy'] });
    if (result.error) {
      setFailure(apiError(result.error).message);
      return;
    }
    if (result.data) onDeleted(result.data.deletePlanPolicy);
  };
  return (
    <Modal
      opened
      onClose={onClose}
      closeButtonProps={{ 'aria-label': 'Close' }}
      title={`Delete the template ${template.name}`}
    >
      <Stack>
        <Text size="sm">
          {tenantCount === 0
            ? 'No tenant is on this plan yet.'
            : `The ${tenantCount === 1 ? 'tenant' : `${tenantCount} tenants`} on this plan lose the policy ${template.name}, and their changes and overrides of it.`}
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
            Delete the template
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
