'use client';

import type { ReactNode } from 'react';
import { Refusal } from '@/components/refusal';
import { useSession } from '@/lib/session';

/** The platform's pages: operators only; anyone else gets a refusal, not the page. */
export default function OperatorLayout({ children }: { children: ReactNode }) {
  const { isOperator } = useSession();
  return isOperator ? children : <Refusal message="This page is for operators." />;
}
