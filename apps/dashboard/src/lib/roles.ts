import type { Role } from './session';

const LABELS: Record<Role, string> = {
  OPERATOR: 'operator',
  TENANT_ADMIN: 'tenant admin',
  TENANT_VIEWER: 'tenant viewer',
};

export function roleLabel(role: string): string {
  return LABELS[role as Role] ?? role.toLowerCase();
}
