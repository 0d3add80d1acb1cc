'use client';

import { Alert, Anchor, Button, PasswordInput, Stack, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import NextLink from 'next/link';
import { useParams } from 'next/navigation';
import { useState } from 'react';
import { useMutation } from 'urql';
import { graphql } from '@/generated/gql';
import { apiError, formErrors } from '@/lib/errors';
import { newPasswordRules } from '@/lib/passwords';
import { DocumentTitle } from '@/components/document-title';

const ResetPasswordDocument = graphql(`
  mutation ResetPassword($input: ResetPasswordInput!) {
    resetPassword(input: $input)
  }
`);

export default function ResetPasswordPage() {
  const { token } = useParams<{ token: string }>();
  const [{ fetching }, reset] = useMutation(ResetPasswordDocument);
  const [done, setDone] = useState(false);
  const [failure, setFailure] = useState<string>();
  const form = useForm({
    initialValues: { password: '', confirm: '' },
    validate: newPasswordRules('password'),
  });
  const submit = form.onSubmit(async ({ password }) => {
    setFailure(undefined);
    const result = await reset({ input: { token, password } });
    if (result.error) {
      const error = apiError(result.error);
      form.setErrors(formErrors(error.issues));
      setFailure(error.message);
      return;
    }
    setDone(true);
  });
  return (
    <Stack>
      <DocumentTitle title="Choose a new password" />
      <Title order={2} size="h3">
        Choose a new password
      </Title>
      {done ? (
        <Alert color="green" role="status" title="Your password is changed">
          Sign in with it; your other sessions have ended.
        </Alert>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack>
            {failure && (
              <Alert color="red" role="alert">
                {failure}
              </Alert>
            )}
            <PasswordInput
              label="New password"
              description="At least 12 characters"
              autoComplete="new-password"
              required
              {...form.getInputProps('password')}
            />
            <PasswordInput
              label="Repeat it"
              autoComplete="new-password"
              required
              {...form.getInputProps('confirm')}
            />
            <Button type="submit" loading={fetching}>
              Set the password
            </Button>
          </Stack>
        </form>
      )}
      <Anchor component={NextLink} href="/sign-in" size="sm" ta="center">
        Go to sign in
      </Anchor>
    </Stack>
  );
}
