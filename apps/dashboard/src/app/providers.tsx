'use client';

import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { NuqsAdapter } from 'nuqs/adapters/next/app';
import { useState, type ReactNode } from 'react';
import { Provider as UrqlProvider } from 'urql';
import { createGraphqlClient } from '@/lib/graphql-client';
import { cssVariablesResolver, theme } from '@/theme';

/** What every page runs in: the theme (light, dark or the system's), GraphQL, URL state. */
export function Providers({ children }: { children: ReactNode }) {
  // one client per page load; created in the browser only (this tree renders there)
  const [client] = useState(createGraphqlClient);
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      defaultColorScheme="auto"
    >
      <Notifications position="top-right" />
      <UrqlProvider value={client}>
        <NuqsAdapter>{children}</NuqsAdapter>
      </UrqlProvider>
    </MantineProvider>
  );
}
