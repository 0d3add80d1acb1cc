import type { Role } from '@sluice/db';
import { describe, expect, it } from 'vitest';
import type { AuthUser } from '../auth/auth-user';
import { AccessService } from './access.service';

const access = new AccessService();

function user(...memberships: { role: Role; tenantId: string | null }[]): AuthUser {
  return { id: 'usr_1', email: 'u@example.com', name: '', createdAt: new Date(0), memberships };
}

const operator = user({ role: 'operator', tenantId: null });
const admin = user({ role: 'tenant_admin', tenantId: 'tnt_a' });
const viewer = user({ role: 'tenant_viewer', tenantId: 'tnt_a' });
const both = user(
  { role: 'tenant_viewer', tenantId: 'tnt_a' },
  { role: 'tenant_admin', tenantId: 'tnt_b' },
);

describe('AccessService', () => {
  it.each([
    // who, action, tenant, allowed
    ['operator', operator, 'write', 'tnt_x', true],
    ['operator', operator, 'write', undefined, true],
    ['admin', admin, 'read', 'tnt_a', true],
    ['admin', admin, 'write', 'tnt_a', true],
    ['admin', admin, 'read', 'tnt_b', false],
    ['admin', admin, 'write', undefined, false],
    ['admin', admin, 'read', null, false],
    ['viewer', viewer, 'read', 'tnt_a', true],
    ['viewer', viewer, 'write', 'tnt_a', false],
    ['viewer', viewer, 'read', 'tnt_b', false],
    ['viewer of a, admin of b', both, 'write', 'tnt_a', false],
    ['viewer of a, admin of b', both, 'write', 'tnt_b', true],
  ] as const)('%s may %s in %s: %s', (_who, subject, action, tenantId, allowed) => {
    expect(access.can(subject, action, tenantId)).toBe(allowed);
    if (allowed) expect(() => access.assertCan(subject, action, tenantId)).not.toThrow();
    else {
      expect(() => access.assertCan(subject, action, tenantId)).toThrow(
        expect.objectContaining({ code: 'FORBIDDEN' }),
      );
    }
  });

  it('scopes lists to the tenants a user belongs to (all of them for an operator)', () => {
    expect(access.readableTenantIds(operator)).toBeUndefined();
    expect(access.readableTenantIds(both)).toEqual(['tnt_a', 'tnt_b']);
    expect(access.readableTenantIds(user())).toEqual([]);
  });
});
