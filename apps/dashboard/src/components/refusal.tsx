'use client';

import { Alert, Button, Stack, Title } from '@mantine/core';
import NextLink from 'next/link';
import { DocumentTitle } from './document-title';

/**
 * What a page shows to a user whose role may not open it: a refusal, never the data (the API
 * refuses it too).
 */
export function Refusal({ message }: { message?: string }) {
  return (
    <Stack maw={560} gap="md">
      <DocumentTitle title="Not allowed" />
      <Title order={1} size="h2">
        Not allowed
      </Title>
      <Alert color="orange" role="alert" title="You do not have access to this page">
        {message ?? 'Your role does not let you open it. Ask an operator if you need it.'}
      </Alert>
      <Button component={NextLink} href="/" variant="default" w="fit-content">
        Go to your start page
      </Button>
    </Stack>
  );
}
