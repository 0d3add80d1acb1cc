'use client';

import { Alert, Button, Group, Modal, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useMutation } from 'urql';
import { apiError, formErrors } from '@/lib/errors';
import { CreateApiKeyDocument } from './documents';
import { KeyFields } from './key-fields';
import { emptyKeyForm, keyFormRules, keyInputOf } from './key-form';
import { KeySecretModal } from './key-secret-modal';

/** Creates a key, then shows its secret once (closing the dialog forgets it). */
export function CreateKeyModal({
  tenantId,
  policyChoices,
  onClose,
}: {
  tenantId: string;
  policyChoices: string[];
  onClose: () => void;
}) {
  const [{ fetching }, create] = useMutation(CreateApiKeyDocument);
  const [failure, setFailure] = useState<string>();
  const [created, setCreated] = useState<{ secret: string; policyNames: string[] }>();
  const form = useForm({ initialValues: emptyKeyForm(), validate: keyFormRules });

  const submit = form.onSubmit(async (values) => {
    setFailure(undefined);
    const input = keyInputOf(values);
    const result = await create(
      { input: { ...input, tenantId, expiresAt: input.expiresAt ?? undefined } },
      { additionalTypenames: ['ApiKey'] },
    );
    if (result.error) {
      const error = apiError(result.error);
      form.setErrors(formErrors(error.issues));
      setFailure(error.message);
      return;
    }
    const payload = result.data?.createApiKey;
    if (payload) setCreated({ secret: payload.secret, policyNames: payload.apiKey.policyNames });
  });

  if (created) {
    return (
      <KeySecretModal
        title="Your new API key"
        secret={created.secret}
        keyPolicies={created.policyNames}
        tenantPolicies={policyChoices}
        onClose={onClose}
      />
    );
  }
  return (
    <Modal opened onClose={onClose} title="New API key" size="lg">
      <form onSubmit={submit} noValidate>
        <Stack>
          {failure && (
            <Alert color="red" role="alert">
              {failure}
            </Alert>
          )}
          <KeyFields form={form} policyChoices={policyChoices} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={fetching}>
              Create the key
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
