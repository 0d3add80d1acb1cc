'use client';

import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { NuqsAdapter } from 'nuqs/adapters/next/app';
import { useEffect, useState, type ReactNode } from 'react';
import { Provider as UrqlProvider } from 'urql';
import { createGraphqlClient } from '@/lib/graphql-client';
import { cssVariablesResolver, theme } from '@/theme';

/** What every page runs in: the theme (light, dark or the system's), GraphQL, URL state. */
export function Providers({ children }: { children: ReactNode }) {
  // one client per page load; created in the browser only (this tree renders there)
  const [client] = useState(createGraphqlClient);
  // Marks the page as hydrated: browser tests wait for it before they type into a page the server
  // rendered, since input sent before hydration is lost (a form submits natively, a field resets).
  useEffect(() => document.documentElement.setAttribute('data-hydrated', ''), []);
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
