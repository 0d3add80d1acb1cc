'use client';

import { Alert, Center, Loader, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { CombinedError } from 'urql';
import { apiError } from '@/lib/errors';
import { Refusal } from './refusal';

/**
 * The loading and error states of a query, the same on every page: a loader until the first
 * answer, the API's message on an error (a refusal page for FORBIDDEN), else the content.
 */
export function QueryState({
  fetching,
  error,
  hasData,
  children,
}: {
  fetching: boolean;
  error: CombinedError | undefined;
  hasData: boolean;
  children: ReactNode;
}) {
  if (error && !hasData) {
    const { code, message } = apiError(error);
    if (code === 'FORBIDDEN') return <Refusal message={message} />;
    return (
      <Alert color="red" role="alert" title={code === 'NOT_FOUND' ? 'Not found' : 'Could not load'}>
        {message}
      </Alert>
    );
  }
  if (fetching && !hasData) {
    return (
      <Center py="xl">
        <Loader aria-label="Loading" />
      </Center>
    );
  }
  return children;
}

/** What a list shows when it has nothing: what would be there, and how to add the first. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <Stack align="center" gap={4} py="xl">
      <Text fw={600}>{title}</Text>
      {children && (
        <Text c="dimmed" size="sm" ta="center" maw={480}>
          {children}
        </Text>
      )}
    </Stack>
  );
}
