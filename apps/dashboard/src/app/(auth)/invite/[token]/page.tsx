'use client';

import {
  Alert,
  Anchor,
  Button,
  Loader,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import NextLink from 'next/link';
import { useParams, useRouter } from 'next/navigation';
import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '@/generated/gql';
import { apiError, formErrors } from '@/lib/errors';
import { formatDateTime } from '@/lib/format';
import { MIN_PASSWORD_LENGTH } from '@/lib/passwords';
import { roleLabel } from '@/lib/roles';
import { DocumentTitle } from '@/components/document-title';

const InvitationPreviewDocument = graphql(`
  query InvitationPreview($token: String!) {
    invitationPreview(token: $token) {
      email
      role
      tenantName
      accountExists
      expiresAt
    }
  }
`);

const AcceptInvitationDocument = graphql(`
  mutation AcceptInvitation($input: AcceptInvitationInput!) {
    acceptInvitation(input: $input) {
      expiresAt
    }
  }
`);

export default function InvitationPage() {
  const { token } = useParams<{ token: string }>();
  const router = useRouter();
  const [preview] = useQuery({ query: InvitationPreviewDocument, variables: { token } });
  const [{ fetching }, accept] = useMutation(AcceptInvitationDocument);
  const [failure, setFailure] = useState<string>();
  const invitation = preview.data?.invitationPreview;
  const form = useForm({
    initialValues: { name: '', password: '' },
    validate: {
      name: (value) => (invitation?.accountExists || value.trim() ? null : 'Enter your name'),
      password: (value) =>
        invitation?.accountExists || value.length >= MIN_PASSWORD_LENGTH
          ? null
          : `Use at least ${MIN_PASSWORD_LENGTH} characters`,
    },
  });

  if (preview.fetching && !invitation) return <Loader aria-label="Loading the invitation" />;
  if (preview.error || !invitation) {
    return (
      <Stack>
        <DocumentTitle title="Invitation" />
        <Title order={2} size="h3">
          This invitation cannot be used
        </Title>
        <Alert color="red" role="alert">
          {preview.error ? apiError(preview.error).message : 'No such invitation.'} Ask for a new
          one.
        </Alert>
        <Anchor component={NextLink} href="/sign-in" size="sm" ta="center">
          Go to sign in
        </Anchor>
      </Stack>
    );
  }

  const submit = form.onSubmit(async ({ name, password }) => {
    setFailure(undefined);
    const result = await accept({
      input: { token, password, ...(invitation.accountExists ? {} : { name: name.trim() }) },
    });
    if (result.error) {
      const error = apiError(result.error);
      form.setErrors(formErrors(error.issues));
      setFailure(error.message);
      return;
    }
    router.replace('/');
  });

  return (
    <form onSubmit={submit} noValidate>
      <DocumentTitle title={`Join ${invitation.tenantName ?? 'Sluice'}`} />
      <Stack>
        <Title order={2} size="h3">
          Join {invitation.tenantName ?? 'Sluice as an operator'}
        </Title>
        <Text size="sm">
          {invitation.email} is invited as <strong>{roleLabel(invitation.role)}</strong>. The
          invitation works until {formatDateTime(invitation.expiresAt)}.
        </Text>
        {failure && (
          <Alert color="red" role="alert">
            {failure}
          </Alert>
        )}
        {invitation.accountExists ? (
          <PasswordInput
            label="Your current password"
            description="This address has an account: sign in with it to accept."
            autoComplete="current-password"
            required
            {...form.getInputProps('password')}
          />
        ) : (
          <>
            <TextInput
              label="Your name"
              autoComplete="name"
              required
              {...form.getInputProps('name')}
            />
            <PasswordInput
              label="Choose a password"
              description={`At least ${MIN_PASSWORD_LENGTH} characters`}
              autoComplete="new-password"
              required
              {...form.getInputProps('password')}
            />
          </>
        )}
        <Button type="submit" loading={fetching}>
          Accept the invitation
        </Button>
      </Stack>
    </form>
  );
}
