'use client';

import { Alert, Anchor, Button, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import NextLink from 'next/link';
import { useRouter, useSearchParams } from 'next/navigation';
import { useState } from 'react';
import { useMutation } from 'urql';
import { graphql } from '@/generated/gql';
import { apiError } from '@/lib/errors';
import { safeNext } from '@/lib/redirect';
import { DocumentTitle } from '@/components/document-title';

const LoginDocument = graphql(`
  mutation Login($input: LoginInput!) {
    login(input: $input) {
      expiresAt
    }
  }
`);

export default function SignInPage() {
  const router = useRouter();
  const next = safeNext(useSearchParams().get('next'));
  const [{ fetching }, login] = useMutation(LoginDocument);
  const [failure, setFailure] = useState<string>();
  const form = useForm({
    initialValues: { email: '', password: '' },
    validate: {
      email: (value) => (/^\S+@\S+$/.test(value) ? null : 'Enter your email address'),
      password: (value) => (value ? null : 'Enter your password'),
    },
  });

  const submit = form.onSubmit(async (values) => {
    setFailure(undefined);
    const result = await login({ input: { ...values, transport: 'COOKIE' } });
    if (result.error) {
      setFailure(apiError(result.error).message);
      return;
    }
    router.replace(next);
  });

  return (
    <form onSubmit={submit} noValidate>
      <DocumentTitle title="Sign in" />
      <Stack>
        <Title order={2} size="h3">
          Sign in
        </Title>
        {failure && (
          <Alert color="red" role="alert" title="Could not sign in">
            {failure}
          </Alert>
        )}
        <TextInput
          label="Email"
          type="email"
          autoComplete="username"
          required
          {...form.getInputProps('email')}
        />
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          required
          {...form.getInputProps('password')}
        />
        <Button type="submit" loading={fetching}>
          Sign in
        </Button>
        <Anchor component={NextLink} href="/forgot-password" size="sm" ta="center">
          Forgot your password?
        </Anchor>
      </Stack>
    </form>
  );
}
