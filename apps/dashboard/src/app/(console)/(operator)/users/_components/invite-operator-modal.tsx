'use client';

import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useMutation } from 'urql';
import { apiError, formErrors } from '@/lib/errors';
import { InviteOperatorDocument } from './documents';

/** Mails a one-time link that makes its address an operator of the whole platform. */
export function InviteOperatorModal({
  opened,
  onClose,
  onInvited,
}: {
  opened: boolean;
  onClose: () => void;
  onInvited: () => void;
}) {
  const [{ fetching }, invite] = useMutation(InviteOperatorDocument);
  const [failure, setFailure] = useState<string>();
  const form = useForm({
    initialValues: { email: '' },
    validate: {
      email: (v) => (/^\S+@\S+\.\S+$/.test(v.trim()) ? null : 'Enter an email address'),
    },
  });
  const close = () => {
    form.reset();
    setFailure(undefined);
    onClose();
  };
  const submit = form.onSubmit(async ({ email }) => {
    setFailure(undefined);
    const result = await invite({ email: email.trim() }, { additionalTypenames: ['Invitation'] });
    if (result.error) {
      const error = apiError(result.error);
      const fields = formErrors(error.issues);
      form.setErrors(fields);
      if (Object.keys(fields).length === 0) setFailure(error.message);
      return;
    }
    close();
    onInvited();
    notifications.show({ message: `An invitation is on its way to ${email.trim()}.` });
  });

  return (
    <Modal
      opened={opened}
      onClose={close}
      title="Invite an operator"
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm">
            Operators manage every tenant, plan and user of the platform. The link in the mail works
            once, for a limited time.
          </Text>
          {failure && (
            <Alert color="red" role="alert" title="Not invited">
              {failure}
            </Alert>
          )}
          <TextInput
            label="Email"
            type="email"
            required
            data-autofocus
            {...form.getInputProps('email')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={fetching}>
              Send the invitation
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
