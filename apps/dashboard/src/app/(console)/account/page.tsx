'use client';

import {
  Alert,
  Button,
  Card,
  Group,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useMutation } from 'urql';
import { PageHeader } from '@/components/page-header';
import { graphql } from '@/generated/gql';
import { apiError, formErrors } from '@/lib/errors';
import { newPasswordRules } from '@/lib/passwords';
import { roleLabel } from '@/lib/roles';
import { useSession } from '@/lib/session';

const UpdateProfileDocument = graphql(`
  mutation UpdateProfile($input: UpdateProfileInput!) {
    updateProfile(input: $input) {
      id
      name
    }
  }
`);

const ChangePasswordDocument = graphql(`
  mutation ChangePassword($input: ChangePasswordInput!) {
    changePassword(input: $input)
  }
`);

export default function AccountPage() {
  const { user, isOperator, tenants } = useSession();
  const [profile, updateProfile] = useMutation(UpdateProfileDocument);
  const [password, changePassword] = useMutation(ChangePasswordDocument);
  const [passwordFailure, setPasswordFailure] = useState<string>();
  const nameForm = useForm({
    initialValues: { name: user.name },
    validate: { name: (v) => (v.trim() ? null : 'Enter your name') },
  });
  const passwordForm = useForm({
    initialValues: { currentPassword: '', newPassword: '', confirm: '' },
    validate: {
      currentPassword: (v) => (v ? null : 'Enter your current password'),
      ...newPasswordRules('newPassword'),
    },
  });

  const saveName = nameForm.onSubmit(async ({ name }) => {
    const result = await updateProfile({ input: { name: name.trim() } });
    if (result.error) nameForm.setErrors(formErrors(apiError(result.error).issues));
    else notifications.show({ message: 'Your name is saved.' });
  });
  const savePassword = passwordForm.onSubmit(async ({ currentPassword, newPassword }) => {
    setPasswordFailure(undefined);
    const result = await changePassword({ input: { currentPassword, newPassword } });
    if (result.error) {
      const error = apiError(result.error);
      passwordForm.setErrors(formErrors(error.issues));
      setPasswordFailure(error.message);
      return;
    }
    passwordForm.reset();
    notifications.show({ message: 'Your password is changed; your other sessions have ended.' });
  });

  const memberships = isOperator
    ? ['Operator of the platform']
    : user.memberships.map(
        (m) =>
          `${roleLabel(m.role)} of ${tenants.find((t) => t.id === m.tenantId)?.name ?? m.tenantId}`,
      );

  return (
    <Stack maw={640}>
      <PageHeader title="Your account" description={user.email} />
      <Card withBorder>
        <form onSubmit={saveName} noValidate>
          <Stack>
            <Title order={2} size="h4">
              Profile
            </Title>
            <TextInput label="Name" required {...nameForm.getInputProps('name')} />
            <Text size="sm" c="dimmed">
              {memberships.join(' · ')}
            </Text>
            <Group justify="flex-end">
              <Button type="submit" loading={profile.fetching}>
                Save the name
              </Button>
            </Group>
          </Stack>
        </form>
      </Card>
      <Card withBorder>
        <form onSubmit={savePassword} noValidate>
          <Stack>
            <Title order={2} size="h4">
              Password
            </Title>
            {passwordFailure && (
              <Alert color="red" role="alert">
                {passwordFailure}
              </Alert>
            )}
            <PasswordInput
              label="Current password"
              autoComplete="current-password"
              required
              {...passwordForm.getInputProps('currentPassword')}
            />
            <PasswordInput
              label="New password"
              description="At least 12 characters"
              autoComplete="new-password"
              required
              {...passwordForm.getInputProps('newPassword')}
            />
            <PasswordInput
              label="Repeat the new password"
              autoComplete="new-password"
              required
              {...passwordForm.getInputProps('confirm')}
            />
            <Group justify="flex-end">
              <Button type="submit" loading={password.fetching}>
                Change the password
              </Button>
            </Group>
          </Stack>
        </form>
      </Card>
    </Stack>
  );
}
