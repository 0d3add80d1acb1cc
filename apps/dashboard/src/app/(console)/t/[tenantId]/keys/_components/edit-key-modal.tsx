'use client';

import { Alert, Button, Group, Modal, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useMutation } from 'urql';
import type { ApiKeyRowFragment } from '@/generated/gql/graphql';
import { apiError, formErrors } from '@/lib/errors';
import { UpdateApiKeyDocument } from './documents';
import { KeyFields } from './key-fields';
import { keyFormOf, keyFormRules, keyInputOf } from './key-form';

/** Changes a key's name, scopes, policies or expiry; its secret stays. */
export function EditKeyModal({
  apiKey,
  policyChoices,
  onClose,
}: {
  apiKey: ApiKeyRowFragment;
  policyChoices: string[];
  onClose: () => void;
}) {
  const [{ fetching }, update] = useMutation(UpdateApiKeyDocument);
  const [failure, setFailure] = useState<string>();
  const form = useForm({ initialValues: keyFormOf(apiKey), validate: keyFormRules });

  const submit = form.onSubmit(async (values) => {
    setFailure(undefined);
    const result = await update({ input: { id: apiKey.id, ...keyInputOf(values) } });
    if (result.error) {
      const error = apiError(result.error);
      form.setErrors(formErrors(error.issues));
      setFailure(error.message);
      return;
    }
    notifications.show({ message: `${values.name.trim()} is saved.` });
    onClose();
  });

  return (
    <Modal opened onClose={onClose} title={`Edit ${apiKey.name}`} size="lg">
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
            <Button type="submit" loading={fetching} disabled={!form.isDirty()}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
