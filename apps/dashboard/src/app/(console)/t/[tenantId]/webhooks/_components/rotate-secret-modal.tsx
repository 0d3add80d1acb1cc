'use client';

import { Alert, Button, Group, Modal, Radio, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useMutation } from 'urql';
import { apiError } from '@/lib/errors';
import { RotateWebhookSecretDocument } from './documents';
import { WebhookSecret } from './webhook-secret';

/** How long the previous secret keeps signing beside the new one (the API's choices). */
const GRACE = [
  { value: '86400', label: 'A day (receivers switch at their pace)' },
  { value: '3600', label: 'An hour' },
  { value: '604800', label: 'A week, the longest' },
  { value: '0', label: 'Not at all: the previous secret leaked' },
];

/** Gives an endpoint a new signing secret, shown once. */
export function RotateSecretModal({
  endpoint,
  onClose,
}: {
  endpoint: { id: string; name: string };
  onClose: () => void;
}) {
  const [{ fetching }, rotate] = useMutation(RotateWebhookSecretDocument);
  const [grace, setGrace] = useState('86400');
  const [failure, setFailure] = useState<string>();
  const [secret, setSecret] = useState<string>();

  const confirm = async () => {
    setFailure(undefined);
    const result = await rotate({ id: endpoint.id, keepPreviousSeconds: Number(grace) });
    if (result.error) {
      setFailure(apiError(result.error).message);
      return;
    }
    setSecret(result.data?.rotateWebhookEndpointSecret.secret);
  };

  return (
    <Modal
      opened
      onClose={onClose}
      title={secret ? `New signing secret of ${endpoint.name}` : `Rotate the signing secret`}
      size="lg"
      closeOnClickOutside={!secret}
    >
      {secret ? (
        <Stack>
          <WebhookSecret secret={secret} />
          <Group justify="flex-end">
            <Button onClick={onClose}>I have copied it</Button>
          </Group>
        </Stack>
      ) : (
        <Stack>
          <Text size="sm">
            Deliveries are signed with a new secret. During the grace period the previous one signs
            too (a second <code>v1=</code> entry), so receivers accept either while they switch.
          </Text>
          <Radio.Group
            label="Keep the previous secret signing for"
            value={grace}
            onChange={setGrace}
          >
            <Stack gap={6} mt={6}>
              {GRACE.map((choice) => (
                <Radio key={choice.value} value={choice.value} label={choice.label} />
              ))}
            </Stack>
          </Radio.Group>
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
              Rotate the secret
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
