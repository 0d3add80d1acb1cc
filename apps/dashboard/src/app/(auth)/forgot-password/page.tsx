'use client';

import { Alert, Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import NextLink from 'next/link';
import { useState } from 'react';
import { useMutation } from 'urql';
import { graphql } from '@/generated/gql';
import { apiError } from '@/lib/errors';
import { DocumentTitle } from '@/components/document-title';

const RequestResetDocument = graphql(`
  mutation RequestPasswordReset($email: String!) {
    requestPasswordReset(email: $email)
  }
`);

export default function ForgotPasswordPage() {
  const [{ fetching }, request] = useMutation(RequestResetDocument);
  const [sentTo, setSentTo] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const form = useForm({
    initialValues: { email: '' },
    validate: { email: (v) => (/^\S+@\S+$/.test(v) ? null : 'Enter your email address') },
  });
  const submit = form.onSubmit(async ({ email }) => {
    setFailure(undefined);
    const result = await request({ email });
    if (result.error) setFailure(apiError(result.error).message);
    else setSentTo(email);
  });
  return (
    <Stack>
      <DocumentTitle title="Reset your password" />
      <Title order={2} size="h3">
        Reset your password
      </Title>
      {sentTo ? (
        <Alert color="green" role="status" title="Check your mail">
          If {sentTo} has an account, a link to choose a new password is on its way.
        </Alert>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack>
            <Text size="sm" c="dimmed">
              We will mail you a link to choose a new password.
            </Text>
            {failure && (
              <Alert color="red" role="alert">
                {failure}
              </Alert>
            )}
            <TextInput label="Email" type="email" required {...form.getInputProps('email')} />
            <Button type="submit" loading={fetching}>
              Send the link
            </Button>
          </Stack>
        </form>
      )}
      <Anchor component={NextLink} href="/sign-in" size="sm" ta="center">
        Back to sign in
      </Anchor>
    </Stack>
  );
}
