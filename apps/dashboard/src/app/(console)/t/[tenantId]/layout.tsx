'use client';

import { useParams } from 'next/navigation';
import type { ReactNode } from 'react';
import { Refusal } from '@/components/refusal';
import { useSession } from '@/lib/session';

/** A tenant's pages: its members and operators; anyone else gets a refusal, not the page. */
export default function TenantLayout({ children }: { children: ReactNode }) {
  const { tenantId } = useParams<{ tenantId: string }>();
  const { roleIn } = useSession();
  return roleIn(tenantId) ? children : <Refusal message="You are not a member of this tenant." />;
}
