import type { Role } from '@sluice/db';

export interface AuthMembership {
  /** null for `operator` (the whole platform). */
  tenantId: string | null;
  role: Role;
}

/** The user behind a valid session, as loaded for this request. */
export interface AuthUser {
  id: string;
  email: string;
  name: string;
  createdAt: Date;
  memberships: readonly AuthMembership[];
}

export function isOperator(user: AuthUser): boolean {
  return user.memberships.some((membership) => membership.role === 'operator');
}

/** How the request proved its session. */
export type AuthMethod = 'cookie' | 'bearer' | 'websocket';

export interface Authentication {
  user: AuthUser;
  sessionId: string;
  method: AuthMethod;
  /** Cookie-authenticated HTTP only: whether `x-csrf-token` matched the session (double submit). */
  csrfValid: boolean;
}
