'use client';

import { Center, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { ColorSchemeToggle } from '@/components/color-scheme-toggle';

/** The frame of the pages before a session: the name, a card, the theme toggle. */
export function AuthFrame({ children }: { children: ReactNode }) {
  return (
    <Center mih="100vh" p="md" component="main">
      <Stack w={400} maw="100%" gap="lg">
        <Stack gap={4} align="center">
          <Title order={1} size="h2">
            Sluice
          </Title>
          <Text c="dimmed" size="sm">
            Rate limits for every tenant
          </Text>
        </Stack>
        <Paper withBorder shadow="sm" p="xl">
          {children}
        </Paper>
        <Center>
          <ColorSchemeToggle />
        </Center>
      </Stack>
    </Center>
  );
}
