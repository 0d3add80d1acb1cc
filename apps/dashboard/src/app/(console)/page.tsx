'use client';

import { Center, Loader } from '@mantine/core';
import { useRouter } from 'next/navigation';
import { useEffect } from 'react';
import { EmptyState } from '@/components/query-state';
import { operatorNav, tenantPath } from '@/components/navigation';
import { useSession } from '@/lib/session';

/** The start page: an operator's first platform page, a member's (first) tenant. */
export default function StartPage() {
  const router = useRouter();
  const session = useSession();
  const first = session.isOperator ? operatorNav[0]?.path : session.tenants[0]?.id;
  useEffect(() => {
    if (!first) return;
    router.replace(session.isOperator ? first : tenantPath(first, ''));
  }, [first, router, session.isOperator]);
  if (!first) {
    return (
      <EmptyState title="No tenant yet">
        Your account belongs to no tenant. Ask an operator or a tenant admin to invite you.
      </EmptyState>
    );
  }
  return (
    <Center py="xl">
      <Loader aria-label="Loading" />
    </Center>
  );
}
