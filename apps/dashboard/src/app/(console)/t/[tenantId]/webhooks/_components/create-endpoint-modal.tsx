'use client';

import { Alert, Button, Group, Modal, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useMutation } from 'urql';
import { tenantPath } from '@/components/navigation';
import { apiError, formErrors } from '@/lib/errors';
import { CreateWebhookEndpointDocument } from './documents';
import { EndpointFields } from './endpoint-fields';
import { emptyEndpointForm, endpointFormRules, endpointInputOf } from './endpoint-form';
import { WebhookSecret } from './webhook-secret';

/** Creates an endpoint, shows its signing secret once, then opens it. */
export function CreateEndpointModal({
  tenantId,
  onClose,
}: {
  tenantId: string;
  onClose: () => void;
}) {
  const router = useRouter();
  const [{ fetching }, create] = useMutation(CreateWebhookEndpointDocument);
  const [failure, setFailure] = useState<string>();
  const [created, setCreated] = useState<{ id: string; secret: string }>();
  const form = useForm({ initialValues: emptyEndpointForm(), validate: endpointFormRules });

  const submit = form.onSubmit(async (values) => {
    setFailure(undefined);
    const result = await create(
      { input: { tenantId, ...endpointInputOf(values) } },
      { additionalTypenames: ['WebhookEndpoint'] },
    );
    if (result.error) {
      const error = apiError(result.error);
      form.setErrors(formErrors(error.issues));
      setFailure(error.message);
      return;
    }
    const payload = result.data?.createWebhookEndpoint;
    if (payload) setCreated({ id: payload.endpoint.id, secret: payload.secret });
  });

  return (
    <Modal
      opened
      onClose={onClose}
      title={created ? 'Your endpoint’s signing secret' : 'New webhook endpoint'}
      size="lg"
      closeOnClickOutside={!created}
    >
      {created ? (
        <Stack>
          <WebhookSecret secret={created.secret} />
          <Group justify="flex-end">
            <Button onClick={() => router.push(tenantPath(tenantId, `/webhooks/${created.id}`))}>
              I have copied it
            </Button>
          </Group>
        </Stack>
      ) : (
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
              <Button type="submit" loading={fetching}>
                Create the endpoint
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
