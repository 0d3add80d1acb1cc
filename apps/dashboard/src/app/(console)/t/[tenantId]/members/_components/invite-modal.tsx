'use client';

import { Alert, Button, Group, Modal, Radio, Stack, TextInput } from '@mantine/core';
import { isEmail, useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useMutation } from 'urql';
import type { Role } from '@/generated/gql/graphql';
import { apiError, formErrors } from '@/lib/errors';
import { InviteMemberDocument } from './documents';
import { TENANT_ROLES } from './roles';

/** Mails an invitation to the tenant, as admin or viewer. */
export function InviteModal({ tenantId, onClose }: { tenantId: string; onClose: () => void }) {
  const [{ fetching }, invite] = useMutation(InviteMemberDocument);
  const [failure, setFailure] = useState<string>();
  const form = useForm<{ email: string; role: Role }>({
    initialValues: { email: '', role: 'TENANT_VIEWER' },
    validate: { email: isEmail('Enter an email address') },
  });

  const submit = form.onSubmit(async ({ email, role }) => {
    setFailure(undefined);
    const result = await invite(
      { input: { tenantId, email: email.trim(), role } },
      { additionalTypenames: ['Invitation'] },
    );
    if (result.error) {
      const error = apiError(result.error);
      form.setErrors(formErrors(error.issues));
      setFailure(error.message);
      return;
    }
    notifications.show({ message: `Invitation sent to ${email.trim()}.` });
    onClose();
  });

  return (
    <Modal opened onClose={onClose} title="Invite a member">
      <form onSubmit={submit} noValidate>
        <Stack>
          {failure && (
            <Alert color="red" role="alert">
              {failure}
            </Alert>
          )}
          <TextInput
            label="Email"
            description="They get a link by mail that works once, until it expires."
            type="email"
            required
            data-autofocus
            {...form.getInputProps('email')}
          />
          <Radio.Group label="Role" required {...form.getInputProps('role')}>
            <Stack gap={6} mt={6}>
              {TENANT_ROLES.map((role) => (
                <Radio
                  key={role.value}
                  value={role.value}
                  label={role.label}
                  description={role.description}
                />
              ))}
            </Stack>
          </Radio.Group>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
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
