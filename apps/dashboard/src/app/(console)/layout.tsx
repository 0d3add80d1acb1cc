'use client';

import { Center, Loader } from '@mantine/core';
import { usePathname, useRouter } from 'next/navigation';
import { useEffect, type ReactNode } from 'react';
import { ConsoleShell } from '@/components/console-shell';
import { QueryState } from '@/components/query-state';
import { apiError } from '@/lib/errors';
import { SessionProvider, useSessionQuery } from '@/lib/session';

/** Every signed-in page: without a session, the sign-in page (coming back here after). */
export default function ConsoleLayout({ children }: { children: ReactNode }) {
  const router = useRouter();
  const pathname = usePathname();
  const { me, tenants } = useSessionQuery();
  const signedOut = me.error !== undefined && apiError(me.error).code === 'UNAUTHENTICATED';

  useEffect(() => {
    if (signedOut) {
      const next = `${pathname}${window.location.search}`;
      router.replace(`/sign-in?next=${encodeURIComponent(next)}`);
    }
  }, [signedOut, pathname, router]);

  const error = signedOut ? undefined : (me.error ?? tenants.error);
  if (error) {
    return (
      <Center mih="100vh" p="md">
        <QueryState fetching={false} error={error} hasData={false}>
          {null}
        </QueryState>
      </Center>
    );
  }
  if (!me.data || !tenants.data) {
    return (
      <Center mih="100vh">
        <Loader aria-label="Loading" />
      </Center>
    );
  }
  return (
    <SessionProvider user={me.data.me} tenants={tenants.data.tenants.nodes}>
      <ConsoleShell>{children}</ConsoleShell>
    </SessionProvider>
  );
}
