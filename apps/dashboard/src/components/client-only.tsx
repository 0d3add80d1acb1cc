'use client';

import { useSyncExternalStore, type ReactNode } from 'react';

const subscribe = () => () => undefined;

/**
 * Renders its children in the browser only. The console is behind a session cookie the server
 * does not read, so every page is drawn by the browser from GraphQL: nothing to render on the
 * server but the document itself.
 */
export function ClientOnly({ children }: { children: ReactNode }) {
  const browser = useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
  return browser ? children : null;
}
