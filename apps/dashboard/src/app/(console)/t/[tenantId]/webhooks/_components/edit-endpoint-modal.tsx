'use client';

import { Alert, Button, Group, Modal, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useMutation } from 'urql';
import type { WebhookEndpointFieldsFragment } from '@/generated/gql/graphql';
import { apiError, formErrors } from '@/lib/errors';
import { UpdateWebhookEndpointDocument } from './documents';
import { EndpointFields } from './endpoint-fields';
import { endpointFormOf, endpointFormRules, endpointInputOf } from './endpoint-form';

/** Changes an endpoint's settings; its secret and queued events stay. */
export function EditEndpointModal({
  endpoint,
  onClose,
}: {
  endpoint: WebhookEndpointFieldsFragment;
  onClose: () => void;
}) {
  const [{ fetching }, update] = useMutation(UpdateWebhookEndpointDocument);
  const [failure, setFailure] = useState<string>();
  const form = useForm({ initialValues: endpointFormOf(endpoint), validate: endpointFormRules });

  const submit = form.onSubmit(async (values) => {
    setFailure(undefined);
    const result = await update({ input: { id: endpoint.id, ...endpointInputOf(values) } });
    if (result.error) {
      const error = apiError(result.error);
      form.setErrors(formErrors(error.issues));
      setFailure(error.message);
      return;
    }
    notifications.show({ message: `${values.name} is saved.` });
    onClose();
  });

  return (
    <Modal opened onClose={onClose} title={`Edit ${endpoint.name}`} size="lg">
      <form onSubmit={submit} noValidate>
        <Stack>
          {failure && (
            <Alert color="red" role="alert">
              {failure}
            </Alert>
          )}
          <EndpointFields form={form} />
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
