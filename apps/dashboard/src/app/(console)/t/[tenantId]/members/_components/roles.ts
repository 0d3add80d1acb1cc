import type { Role } from '@/generated/gql/graphql';

/** The roles a tenant's members can have (operators are the platform's, not a tenant's). */
export const TENANT_ROLES = [
  {
    value: 'TENANT_ADMIN',
    label: 'Admin',
    description: 'Manages the tenant: keys, webhooks, members.',
  },
  { value: 'TENANT_VIEWER', label: 'Viewer', description: 'Reads everything, changes nothing.' },
] as const satisfies readonly { value: Role; label: string; description: string }[];
