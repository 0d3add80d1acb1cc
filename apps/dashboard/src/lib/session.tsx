'use client';

import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { useQuery } from 'urql';
import { graphql } from '@/generated/gql';
import type { MeQuery } from '@/generated/gql/graphql';

export const MeDocument = graphql(`
  query Me {
    me {
      id
      email
      name
      memberships {
        role
        tenantId
      }
    }
  }
`);

export const MyTenantsDocument = graphql(`
  query MyTenants {
    tenants(first: 100) {
      nodes {
        id
        slug
        name
        status
      }
      totalCount
    }
  }
`);

export type Role = 'OPERATOR' | 'TENANT_ADMIN' | 'TENANT_VIEWER';
export type User = MeQuery['me'];

export interface Session {
  user: User;
  isOperator: boolean;
  /** The user's role in a tenant (an operator acts as its admin); undefined: none. */
  roleIn(tenantId: string): Role | undefined;
  /** Whether the user may change the tenant's configuration. */
  canWrite(tenantId: string): boolean;
  /** The tenants the switcher offers: every one for an operator's first page, else the user's. */
  tenants: { id: string; slug: string; name: string }[];
}

const SessionContext = createContext<Session | undefined>(undefined);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in page');
  return session;
}

export function SessionProvider({
  user,
  tenants,
  children,
}: {
  user: User;
  tenants: Session['tenants'];
  children: ReactNode;
}) {
  const session = useMemo((): Session => {
    const isOperator = user.memberships.some((m) => m.role === 'OPERATOR');
    const roleIn = (tenantId: string): Role | undefined =>
      isOperator
        ? 'TENANT_ADMIN'
        : (user.memberships.find((m) => m.tenantId === tenantId)?.role as Role | undefined);
    return {
      user,
      isOperator,
      roleIn,
      canWrite: (tenantId) => roleIn(tenantId) === 'TENANT_ADMIN',
      tenants,
    };
  }, [user, tenants]);
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

/** The signed-in user and their tenants, read once per page load. */
export function useSessionQuery() {
  const [me] = useQuery({ query: MeDocument, requestPolicy: 'network-only' });
  const [tenants] = useQuery({
    query: MyTenantsDocument,
    pause: !me.data,
    requestPolicy: 'network-only',
  });
  return { me, tenants };
}
