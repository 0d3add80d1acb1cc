import { registerEnumType } from '@nestjs/graphql';
import type { Role } from '@sluice/db';

/** GraphQL names of the database roles (values are the stored ones). */
export const RoleEnum = {
  OPERATOR: 'operator',
  TENANT_ADMIN: 'tenant_admin',
  TENANT_VIEWER: 'tenant_viewer',
} as const satisfies Record<string, Role>;

registerEnumType(RoleEnum, {
  name: 'Role',
  description:
    'OPERATOR: the whole platform. TENANT_ADMIN: manages its tenant. TENANT_VIEWER: reads it.',
});
